// Connected apps: the agents a person let in over OAuth, listed and cut off by that person, over real HTTP on two
// gateway replicas sharing one database and NATS (docs/decisions/0057-connected-apps.md): through the API, the
// `fit` binary, the web app's Settings in a real browser, and sign-out everywhere.
import { mkdtempSync, rmSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { uniqueTag } from "@fit/testing";
import { buildCli, runFit } from "./support/cli.ts";
import { startReplica } from "./support/gateway-replica.ts";
import { client } from "./support/http.ts";
import { connectAgent, insecure, oauth } from "./support/oauth-agent.ts";
import { printedLink, signIn } from "./support/sign-in.ts";
import { startSystem, type System } from "./support/system.ts";
import { ensureWebAppBuilt, launchChromium } from "./support/web-app.ts";

let system: System;
let replica: Awaited<ReturnType<typeof startReplica>>;
let home: string;

beforeAll(async () => {
  await buildCli();
  // The gateway reads the web app's index.html when it starts: the build must be there first.
  ensureWebAppBuilt();
  system = await startSystem({
    databaseUrl: inject("databaseUrl"),
    natsUrl: inject("natsUrl"),
    env: { SIGN_IN_LIMIT_PER_ADDRESS: "200", SIGN_IN_LIMIT_PER_EMAIL: "50", REGISTRATION_LIMIT_PER_ADDRESS: "200", EXCHANGE_LIMIT_PER_ADDRESS: "1000" },
  });
  replica = await startReplica(system);
  home = await mkdtemp(join(tmpdir(), "fit-apps-"));
}, 180_000);
afterAll(async () => {
  await replica?.stop();
  await system?.stop();
  if (home) await rm(home, { recursive: true, force: true });
});

const withCookie = (baseUrl: string, cookie: string) => {
  const anonymous = client(baseUrl);
  const headers = { cookie, origin: new URL(baseUrl).origin };
  return {
    get: (path: string) => anonymous.get(path, headers),
    post: (path: string, body?: unknown) => anonymous.post(path, body, headers),
    delete: (path: string) => anonymous.delete(path, headers),
  };
};

type Agent = Awaited<ReturnType<typeof connectAgent>>;

/** The agent's refresh, as it would do it: the new token set, or the OAuth error code it got instead. */
const refresh = async (agent: Agent, refreshToken = agent.tokens.refresh_token!) => {
  const response = await oauth.refreshTokenGrantRequest(agent.as, agent.client, oauth.None(), refreshToken, {
    ...insecure, additionalParameters: { resource: agent.resource },
  });
  try {
    return await oauth.processRefreshTokenResponse(agent.as, agent.client, response);
  } catch (error) {
    return { error: (error as { error?: string }).error ?? String(error) };
  }
};

/** Several successful requests, so the gateway's credential cache certainly holds the token. */
const warm = async (api: { get(path: string): Promise<{ status: number }> }) => {
  for (let i = 0; i < 3; i++) expect((await api.get("/api/weight")).status).toBe(200);
};

interface Listed {
  clientId: string;
  name: string | null;
  scopes: string[];
  selfRegistered: boolean;
  redirectHosts: string[];
  createdAt: number;
  lastUsedAt: number | null;
}

const listed = async (api: { get(path: string): Promise<{ status: number; body: { items: Listed[] } }> }) => {
  const response = await api.get("/api/connected-apps");
  expect(response.status).toBe(200);
  return response.body.items;
};

/** A person signed in, with two agents: one holding a refresh token, one only a short access token. */
const personWithAgents = async () => {
  const email = `${uniqueTag("person")}@example.com`;
  const diary = await connectAgent(system.url, "weight:read offline_access", { email, name: "Diary bot" });
  const coach = await connectAgent(system.url, "weight:read", { email, name: "Coach" });
  const session = withCookie(system.url, await signIn(system.url, email));
  return { email, diary, coach, session };
};

describe("GET /api/connected-apps", () => {
  it("lists each app the account let in: name, scopes, self-registration, redirect hosts, when connected and last given tokens", async () => {
    const before = Date.now();
    const { email, diary, coach, session } = await personWithAgents();
    await connectAgent(system.url, "weight:read", { name: "Someone else's" });
    const items = await listed(session);
    expect(items.map((app) => app.clientId).sort()).toEqual([diary.client.client_id, coach.client.client_id].sort());
    const diaryApp = items.find((app) => app.clientId === diary.client.client_id)!;
    expect(diaryApp).toMatchObject({ name: "Diary bot", scopes: ["offline_access", "weight:read"], selfRegistered: true, redirectHosts: ["127.0.0.1:9"] });
    expect(diaryApp.createdAt).toBeGreaterThanOrEqual(before - 1000);
    expect(diaryApp.lastUsedAt).toBeGreaterThanOrEqual(diaryApp.createdAt);
    // Without offline_access nothing is stored per token issue.
    expect(items.find((app) => app.clientId === coach.client.client_id)).toMatchObject({ name: "Coach", scopes: ["weight:read"], lastUsedAt: null });

    // A refresh is a use.
    const usedBefore = diaryApp.lastUsedAt!;
    // A token's times are whole seconds: a refresh within the same second would not be later.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await refresh(diary)).toHaveProperty("access_token");
    expect((await listed(session)).find((app) => app.clientId === diary.client.client_id)!.lastUsedAt).toBeGreaterThan(usedBefore);

    // A key holding `keys` sees the same list; a key without it and the agents themselves are refused.
    const manager = client(system.url, (await system.key(email, { scopes: ["keys"] })).key);
    expect((await listed(manager)).map((app) => app.clientId).sort()).toEqual(items.map((app) => app.clientId).sort());
    expect((await client(system.url, (await system.key(email, { scopes: ["weight:read"] })).key).get("/api/connected-apps")).status).toBe(403);
    const agentAsks = await client(system.url, diary.tokens.access_token).get("/api/connected-apps");
    expect(agentAsks.status).toBe(403);
    expect(agentAsks.body.error).toMatch(/keys/);
  });
});

describe("DELETE /api/connected-apps/:clientId", () => {
  it("ends the app's access and refresh tokens at once on every replica; other apps and credentials keep working", async () => {
    const { email, diary, coach, session } = await personWithAgents();
    const onReplica = client(replica.url, diary.tokens.access_token);
    await warm(onReplica);
    const coachApi = client(replica.url, coach.tokens.access_token);
    await warm(coachApi);
    const revoked = await session.delete(`/api/connected-apps/${diary.client.client_id}`);
    expect(revoked).toMatchObject({ status: 200, body: { ok: true } });
    expect((await onReplica.get("/api/weight")).status).toBe(401);
    expect((await client(system.url, diary.tokens.access_token).get("/api/weight")).status).toBe(401);
    expect(await refresh(diary)).toEqual({ error: "invalid_grant" });
    expect((await coachApi.get("/api/weight")).status).toBe(200);
    expect((await session.get("/api/weight")).status).toBe(200);
    expect((await listed(session)).map((app) => app.clientId)).toEqual([coach.client.client_id]);
    // Gone is gone: again, 404.
    expect((await session.delete(`/api/connected-apps/${diary.client.client_id}`)).status).toBe(404);

    // Connecting again asks again, and the new tokens work.
    const again = await connectAgent(system.url, "weight:read offline_access", { email, name: "Diary bot" });
    expect((await client(replica.url, again.tokens.access_token).get("/api/weight")).status).toBe(200);
  });

  it("answers 404 in the envelope for another account's app or an unknown id, and changes nothing", async () => {
    const { diary, session } = await personWithAgents();
    const stranger = withCookie(system.url, await signIn(system.url, (await system.account()).email));
    for (const clientId of [diary.client.client_id, "no-such-client", "A".repeat(32)]) {
      const refused = await stranger.delete(`/api/connected-apps/${clientId}`);
      expect(refused.status, clientId).toBe(404);
      expect(refused.body).toEqual({ error: expect.any(String) });
    }
    expect((await client(system.url, diary.tokens.access_token).get("/api/weight")).status).toBe(200);
    expect(await refresh(diary)).toHaveProperty("access_token");
    expect(await listed(session)).toHaveLength(2);
  });

  it("refuses malformed client ids with 400 in the envelope", async () => {
    const { session } = await personWithAgents();
    for (const clientId of ["a".repeat(300), "%00", "a%20b", "%E2%80%AE", "..%2F..%2Fkeys", "%ZZ"]) {
      const refused = await session.delete(`/api/connected-apps/${clientId}`);
      expect([400, 404], clientId).toContain(refused.status);
      expect(refused.body, clientId).toEqual({ error: expect.any(String) });
    }
    expect(await listed(session)).toHaveLength(2);
  });
});

describe("signing out everywhere", () => {
  it("keeps connected apps unless asked to end them too, then ends them on every replica", async () => {
    const { email, diary, coach, session } = await personWithAgents();
    const other = withCookie(system.url, await signIn(system.url, email, "tablet"));
    const kept = await session.post("/api/sessions/revoke-others");
    expect(kept).toMatchObject({ status: 200, body: { ok: true, revoked: expect.any(Number), connectedApps: 0 } });
    expect((await other.get("/api/weight")).status).toBe(401);
    const refreshed = await refresh(diary);
    expect(refreshed).toHaveProperty("access_token");
    const diaryApi = client(replica.url, (refreshed as { access_token: string }).access_token);
    await warm(diaryApi);
    const coachApi = client(replica.url, coach.tokens.access_token);
    await warm(coachApi);

    const ended = await session.post("/api/sessions/revoke-others?connectedApps=revoke");
    expect(ended).toMatchObject({ status: 200, body: { ok: true, connectedApps: 2 } });
    expect((await diaryApi.get("/api/weight")).status).toBe(401);
    expect((await coachApi.get("/api/weight")).status).toBe(401);
    expect(await refresh(diary, (refreshed as { refresh_token: string }).refresh_token)).toEqual({ error: "invalid_grant" });
    expect(await listed(session)).toEqual([]);
    expect((await session.get("/api/weight")).status).toBe(200);
    expect((await session.post("/api/sessions/revoke-others?connectedApps=all")).status).toBe(400);
  });

  it("lets an app connected again just after its revocation in at once, within the same second", async () => {
    const { email, session } = await personWithAgents();
    // End every grant at the start of a second, so the next token's whole-second iat is the second of that end.
    await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000)));
    expect((await session.post("/api/sessions/revoke-others?connectedApps=revoke")).body).toMatchObject({ connectedApps: 2 });
    const again = await connectAgent(system.url, "weight:read", { email, name: "Diary bot, again" });
    await warm(client(replica.url, again.tokens.access_token));
  });
});

const fit = (args: string[], apiKey: string) => runFit(args, { home, env: { FIT_URL: system.url, FIT_API_KEY: apiKey } });

describe("fit apps", () => {
  it("lists connected apps in a table and as JSON, and revokes one by client id", async () => {
    const { email, diary, coach } = await personWithAgents();
    const key = (await system.key(email, { scopes: ["keys"] })).key;
    const table = await fit(["apps", "list"], key);
    expect(table).toMatchObject({ code: 0, stderr: "" });
    expect(table.stdout).toContain("Diary bot");
    expect(table.stdout).toContain(diary.client.client_id);
    expect(table.stdout).toContain("offline_access weight:read");
    const json = await fit(["apps", "list", "--json"], key);
    expect(json.code).toBe(0);
    const { items } = JSON.parse(json.stdout) as { items: Listed[] };
    expect(items.map((app) => app.clientId).sort()).toEqual([diary.client.client_id, coach.client.client_id].sort());

    const revoked = await fit(["apps", "revoke", diary.client.client_id], key);
    expect(revoked).toMatchObject({ code: 0, stderr: "" });
    expect(revoked.stdout).toContain(diary.client.client_id);
    expect((await client(system.url, diary.tokens.access_token).get("/api/weight")).status).toBe(401);
    expect(JSON.parse((await fit(["apps", "list", "--json"], key)).stdout).items).toHaveLength(1);

    const again = await fit(["apps", "revoke", diary.client.client_id], key);
    expect(again.code).toBe(4);
    expect(again.stderr).toMatch(/^fit: .*connected app.*\n$/);
    const unscoped = await fit(["apps", "list"], (await system.key(email, { scopes: ["weight:read"] })).key);
    expect(unscoped.code).toBe(3);
  });
});

describe("the web app's Settings", () => {
  /** A loaded machine may take seconds to show what a write changed. */
  const POLL = { timeout: 15_000 };

  it("lists connected apps, revokes one only once confirmed, and signs out everywhere with the apps when ticked", async () => {
    const { email, diary, coach } = await personWithAgents();
    const profile = mkdtempSync(join(tmpdir(), "fit-chromium-"));
    const context = await launchChromium(profile);
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      const link = await printedLink(email, async () => {
        await client(system.url).post("/api/auth/sign-in/magic-link", { email }, { origin: new URL(system.url).origin });
      });
      await page.goto(link);
      await page.goto(`${system.url}/settings`);
      const apps = page.getByRole("list", { name: "Connected apps" });
      await expect.poll(() => apps.getByRole("listitem").count(), POLL).toBe(2);
      const diaryItem = apps.getByRole("listitem").filter({ hasText: "Diary bot" });
      const shown = (await diaryItem.textContent()) ?? "";
      expect(shown).toContain("self-registered");
      expect(shown).toContain("offline_access, weight:read");
      expect(shown).toContain("127.0.0.1:9");
      expect(shown).toMatch(/last used/);

      await diaryItem.getByRole("button", { name: "Revoke Diary bot" }).click();
      // Nothing is revoked before the confirmation.
      await diaryItem.getByRole("group", { name: "Confirm revoking Diary bot" }).waitFor();
      expect((await client(system.url, diary.tokens.access_token).get("/api/weight")).status).toBe(200);
      await diaryItem.getByRole("button", { name: "Yes, revoke" }).click();
      await expect.poll(() => apps.getByRole("listitem").count(), POLL).toBe(1);
      expect((await client(system.url, diary.tokens.access_token).get("/api/weight")).status).toBe(401);
      expect((await client(system.url, coach.tokens.access_token).get("/api/weight")).status).toBe(200);

      // Sign-out everywhere offers to end the apps too.
      const tablet = withCookie(system.url, await signIn(system.url, email, "tablet"));
      await page.reload();
      await page.getByRole("checkbox", { name: /disconnect every connected app/ }).check();
      await page.getByRole("button", { name: "Sign out everywhere else" }).click();
      await expect.poll(() => apps.getByRole("listitem").count(), POLL).toBe(0);
      expect((await tablet.get("/api/weight")).status).toBe(401);
      expect((await client(system.url, coach.tokens.access_token).get("/api/weight")).status).toBe(401);
      await page.getByText("No connected apps.").waitFor();
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    }
  });
});
