// API keys and sessions managed by their owner, over real HTTP, on two gateway processes sharing one database
// (docs/decisions/0020-keys-and-sessions-managed-by-their-owner.md), and revocation reaching every replica's
// credential cache (docs/decisions/0027-credential-cache.md).
import * as oauth from "oauth4webapi";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startReplica } from "./support/gateway-replica.ts";
import { client } from "./support/http.ts";
import { startPrivateNats } from "./support/nats-server.ts";
import { connectAgent } from "./support/oauth-agent.ts";
import { signIn } from "./support/sign-in.ts";
import { startSystem, type System } from "./support/system.ts";

let system: System;
let replica: Awaited<ReturnType<typeof startReplica>>;
let replicaUrl: string;
let db: pg.Client;

beforeAll(async () => {
  system = await startSystem({
    databaseUrl: inject("databaseUrl"),
    natsUrl: inject("natsUrl"),
    env: { SIGN_IN_LIMIT_PER_ADDRESS: "100", SIGN_IN_LIMIT_PER_EMAIL: "20" },
  });
  replica = await startReplica(system);
  replicaUrl = replica.url;
  db = new pg.Client({ connectionString: system.env["DATABASE_URL"], options: "-c search_path=identity" });
  await db.connect();
});
afterAll(async () => {
  await db?.end();
  await replica?.stop();
  await system?.stop();
});

/** A client sending a session cookie instead of a key. */
const withCookie = (baseUrl: string, cookie: string) => {
  const anonymous = client(baseUrl);
  return {
    get: (path: string) => anonymous.get(path, { cookie }),
    post: (path: string, body?: unknown) => anonymous.post(path, body, { cookie }),
    delete: (path: string) => anonymous.delete(path, { cookie }),
  };
};

const newAccount = async () => {
  const { email } = await system.account();
  return { email, session: withCookie(system.url, await signIn(system.url, email)) };
};

describe("API keys", () => {
  it("shows the secret once, stores only its hash, and never lists the secret", async () => {
    const { session } = await newAccount();
    const created = await session.post("/api/keys", { name: "scale script", scopes: ["weight:write"], expiresInDays: 30 });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ name: "scale script", scopes: ["weight:write"], prefix: "fit_" });
    expect(created.body.key).toMatch(/^fit_[A-Za-z]{64}$/);
    expect(created.body.key.startsWith(created.body.start)).toBe(true);
    expect(created.body.expiresAt - created.body.createdAt).toBeCloseTo(30 * 86_400_000, -4);

    const stored = await db.query<{ key: string }>("SELECT key FROM api_key WHERE id = $1", [created.body.id]);
    expect(stored.rows[0]?.key).toBeDefined();
    expect(stored.rows[0]?.key).not.toBe(created.body.key);
    expect(stored.rows[0]?.key).not.toContain(created.body.key.slice(4));

    const listed = await session.get("/api/keys");
    expect(listed.status).toBe(200);
    // The account's first key (issued by the operator) is listed too.
    expect(listed.body).toHaveLength(2);
    expect(listed.body).toContainEqual({
      id: created.body.id, name: "scale script", prefix: "fit_", start: created.body.start, scopes: ["weight:write"],
      createdAt: created.body.createdAt, lastUsedAt: null, expiresAt: created.body.expiresAt,
    });
    expect(JSON.stringify(listed.body)).not.toContain(created.body.key);
    expect(JSON.stringify(listed.body)).not.toContain(stored.rows[0]!.key);
  });

  it("validates the name, the scopes and the expiry", async () => {
    const { session } = await newAccount();
    for (const body of [{}, { name: "" }, { name: "x".repeat(101) }, { name: "k", scopes: ["weight:fly"] }, { name: "k", scopes: [] },
      { name: "k", expiresInDays: 0 }, { name: "k", expiresInDays: 3651 }, { name: "k", expiresInDays: 1.5 }]) {
      expect((await session.post("/api/keys", body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await session.post("/api/keys", { name: "x".repeat(100), expiresInDays: 3650 })).status).toBe(200);
  });

  it("a key without the keys scope cannot reach key management", async () => {
    const full = client(system.url, (await system.account()).key);
    expect((await full.get("/api/keys")).status).toBe(403);
    expect((await full.post("/api/keys", { name: "more" })).status).toBe(403);
  });

  it("refuses to grant a scope the calling key does not hold, and full access to a scoped key", async () => {
    const { session } = await newAccount();
    const manager = client(system.url, (await session.post("/api/keys", { name: "manager", scopes: ["keys", "weight:read"] })).body.key);
    expect((await manager.post("/api/keys", { name: "escalate", scopes: ["weight:write"] })).status).toBe(403);
    expect((await manager.post("/api/keys", { name: "everything" })).status).toBe(403);
    expect((await manager.post("/api/keys", { name: "account", scopes: ["account"] })).status).toBe(403);
    const narrower = await manager.post("/api/keys", { name: "reader", scopes: ["weight:read"] });
    expect(narrower.status).toBe(200);
    const reader = client(system.url, narrower.body.key);
    expect((await reader.get("/api/weight")).status).toBe(200);
    expect((await reader.post("/api/weight", { weightKg: 80 })).status).toBe(403);

    // A key holding keys and every data scope may make a full-access key; a session may grant anything.
    const dataScopes = ["weight:read", "weight:write", "measurements:read", "measurements:write", "targets:read", "targets:write",
      "nutrition:read", "nutrition:write", "workouts:read", "workouts:write", "profile:read", "profile:write", "imports:read", "imports:write", "coach", "dashboard:read"];
    const wide = client(system.url, (await session.post("/api/keys", { name: "wide", scopes: ["keys", ...dataScopes] })).body.key);
    expect((await wide.post("/api/keys", { name: "full" })).status).toBe(200);
    expect((await session.post("/api/keys", { name: "admin", scopes: ["keys", "account"] })).status).toBe(200);
  });

  it("grants keys or account only from a session signed in within the last 10 minutes, as deleting the account needs", async () => {
    const { email } = await system.account();
    const cookie = await signIn(system.url, email, "old browser");
    // Aged before its first API request, so no gateway holds it with its real creation time.
    await db.query("UPDATE session SET created_at = now() - interval '11 minutes' WHERE user_id = (SELECT id FROM \"user\" WHERE email = $1)", [email]);
    const old = withCookie(system.url, cookie);
    for (const scopes of [["account"], ["keys"], ["keys", "weight:read"]]) {
      const refused = await old.post("/api/keys", { name: "escalate", scopes });
      expect(refused.status).toBe(403);
      expect(refused.body.error).toMatch(/sign in again/);
    }
    expect((await old.delete("/api/account")).status).toBe(403);
    expect((await old.post("/api/keys", { name: "data only", scopes: ["weight:read"] })).status).toBe(200);
    expect((await old.get("/api/keys")).body.map((k: { name: string }) => k.name)).not.toContain("escalate");
    const fresh = withCookie(system.url, await signIn(system.url, email, "new browser"));
    expect((await fresh.post("/api/keys", { name: "admin", scopes: ["keys", "account"] })).status).toBe(200);
  });

  it("a key never outlives the key that made it: the new key's expiry is capped at its maker's", async () => {
    const { session } = await newAccount();
    const maker = await session.post("/api/keys", { name: "one day", scopes: ["keys", "weight:read"], expiresInDays: 1 });
    const manager = client(system.url, maker.body.key);
    for (const body of [{ name: "forever", scopes: ["weight:read"] }, { name: "a month", scopes: ["weight:read"], expiresInDays: 30 }]) {
      const made = await manager.post("/api/keys", body);
      expect(made.status).toBe(200);
      expect(made.body.expiresAt).not.toBeNull();
      expect(made.body.expiresAt).toBeLessThanOrEqual(maker.body.expiresAt);
      expect(made.body.expiresAt).toBeGreaterThan(maker.body.expiresAt - 60_000);
      const listed = (await session.get("/api/keys")).body.find((k: { id: string }) => k.id === made.body.id);
      expect(listed.expiresAt).toBe(made.body.expiresAt);
    }
    // A key without an expiry makes keys as long-lived as asked.
    const unbounded = client(system.url, (await session.post("/api/keys", { name: "no expiry", scopes: ["keys", "weight:read"] })).body.key);
    expect((await unbounded.post("/api/keys", { name: "forever", scopes: ["weight:read"] })).body.expiresAt).toBeNull();
  });

  it("revokes a key: its next request is a 401; another account's key id is a 404", async () => {
    const { session } = await newAccount();
    const other = await newAccount();
    const created = await session.post("/api/keys", { name: "to revoke" });
    const api = client(system.url, created.body.key);
    expect((await api.get("/api/weight")).status).toBe(200);
    expect((await other.session.delete(`/api/keys/${created.body.id}`)).status).toBe(404);
    expect((await api.get("/api/weight")).status).toBe(200);
    expect((await session.delete(`/api/keys/${created.body.id}`)).status).toBe(200);
    expect((await api.get("/api/weight")).status).toBe(401);
    expect((await session.delete(`/api/keys/${created.body.id}`)).status).toBe(404);
    expect((await session.get("/api/keys")).body.map((k: { id: string }) => k.id)).not.toContain(created.body.id);
  });

  it("an expired key is a 401", async () => {
    const { session } = await newAccount();
    const created = await session.post("/api/keys", { name: "short", expiresInDays: 1 });
    expect((await client(system.url, created.body.key).get("/api/weight")).status).toBe(200);
    await db.query("UPDATE api_key SET expires_at = now() - interval '1 second' WHERE id = $1", [created.body.id]);
    // Read afresh (the replica holds nothing of it); a held key is refused at its expiry without a read (unit tests).
    expect((await client(replicaUrl, created.body.key).get("/api/weight")).status).toBe(401);
  });

  it("records a key's last use at most once a minute", async () => {
    const { session } = await newAccount();
    const created = await session.post("/api/keys", { name: "used", scopes: ["weight:read"] });
    const api = client(system.url, created.body.key);
    const lastUsed = async () =>
      ((await session.get("/api/keys")).body as { id: string; lastUsedAt: number | null }[]).find((k) => k.id === created.body.id)!.lastUsedAt;
    expect(await lastUsed()).toBeNull();
    const before = Date.now();
    await api.get("/api/weight");
    const first = await lastUsed();
    expect(first).toBeGreaterThanOrEqual(before - 1000);
    await api.get("/api/weight");
    expect(await lastUsed()).toBe(first);
    await db.query("UPDATE api_key SET last_request = now() - interval '2 minutes' WHERE id = $1", [created.body.id]);
    // Only a read of the row decides: the replica, which holds nothing of this key yet, reads it.
    await client(replicaUrl, created.body.key).get("/api/weight");
    expect(await lastUsed()).toBeGreaterThan(first!);
  });
});

describe("sessions", () => {
  it("lists the account's sessions, marking the current one; an API key gets 403", async () => {
    const { email, session } = await newAccount();
    const phone = withCookie(system.url, await signIn(system.url, email, "phone-browser"));
    const listed = await phone.get("/api/sessions");
    expect(listed.status).toBe(200);
    expect(listed.body).toHaveLength(2);
    const current = (listed.body as { current: boolean; userAgent: string }[]).filter((s) => s.current);
    expect(current).toHaveLength(1);
    expect(current[0]).toMatchObject({ userAgent: "phone-browser" });
    expect(Object.keys(listed.body[0]).sort()).toEqual(["createdAt", "current", "expiresAt", "id", "ipAddress", "userAgent"]);
    expect((await session.get("/api/sessions")).body.filter((s: { current: boolean }) => s.current)[0].userAgent).toBe("test-browser");

    const key = await session.post("/api/keys", { name: "admin", scopes: ["keys", "account"] });
    const api = client(system.url, key.body.key);
    expect((await api.get("/api/sessions")).status).toBe(403);
    expect((await api.delete(`/api/sessions/${listed.body[0].id}`)).status).toBe(403);
    expect((await api.post("/api/sessions/revoke-others")).status).toBe(403);
  });

  it("revokes one session (its next request is a 401), not another account's (404)", async () => {
    const { email, session } = await newAccount();
    const other = await newAccount();
    const laptop = withCookie(system.url, await signIn(system.url, email, "laptop"));
    const laptopId = ((await laptop.get("/api/sessions")).body as { id: string; current: boolean }[]).find((s) => s.current)!.id;
    expect((await other.session.delete(`/api/sessions/${laptopId}`)).status).toBe(404);
    expect((await laptop.get("/api/weight")).status).toBe(200);
    expect((await session.delete(`/api/sessions/${laptopId}`)).status).toBe(200);
    expect((await laptop.get("/api/weight")).status).toBe(401);
    expect((await session.get("/api/weight")).status).toBe(200);
  });

  it("revokes every session but the current one", async () => {
    const { email, session } = await newAccount();
    const others = [await signIn(system.url, email, "a"), await signIn(system.url, email, "b")].map((c) => withCookie(system.url, c));
    const revoked = await session.post("/api/sessions/revoke-others");
    expect(revoked).toMatchObject({ status: 200, body: { ok: true, revoked: 2 } });
    for (const device of others) expect((await device.get("/api/weight")).status).toBe(401);
    expect((await session.get("/api/sessions")).body).toHaveLength(1);
  });
});

/** Several successful requests, so the gateway's credential cache certainly holds the credential. */
const warm = async (api: { get(path: string): Promise<{ status: number }> }) => {
  for (let i = 0; i < 3; i++) expect((await api.get("/api/weight")).status).toBe(200);
};

describe("revocation across gateway replicas, their caches warm", () => {
  it("a key revoked on one replica is a 401 at its very next request on the other", async () => {
    const { session } = await newAccount();
    const created = await session.post("/api/keys", { name: "replicated" });
    const [first, second] = [client(system.url, created.body.key), client(replicaUrl, created.body.key)];
    await warm(first);
    await warm(second);
    expect((await session.delete(`/api/keys/${created.body.id}`)).status).toBe(200);
    expect((await second.get("/api/weight")).status).toBe(401);
    expect((await first.get("/api/weight")).status).toBe(401);
  });

  it("a session revoked on one replica is a 401 at its very next request on the other", async () => {
    const { email, session } = await newAccount();
    const cookie = await signIn(system.url, email, "roaming");
    const [onFirst, onSecond] = [withCookie(system.url, cookie), withCookie(replicaUrl, cookie)];
    await warm(onFirst);
    await warm(onSecond);
    const id = ((await onSecond.get("/api/sessions")).body as { id: string; current: boolean }[]).find((s) => s.current)!.id;
    expect((await session.delete(`/api/sessions/${id}`)).status).toBe(200);
    expect((await onSecond.get("/api/weight")).status).toBe(401);
    expect((await onFirst.get("/api/weight")).status).toBe(401);
  });

  it("sessions revoked by revoke-others are 401s at their very next request on the other replica", async () => {
    const { email, session } = await newAccount();
    const other = withCookie(replicaUrl, await signIn(system.url, email, "tablet"));
    await warm(other);
    expect((await session.post("/api/sessions/revoke-others")).body).toMatchObject({ revoked: 1 });
    expect((await other.get("/api/weight")).status).toBe(401);
    expect((await session.get("/api/weight")).status).toBe(200);
  });

  it("a session signed out on one replica is a 401 at its very next request on the other", async () => {
    const { email } = await newAccount();
    const cookie = await signIn(system.url, email, "signing-out");
    const onSecond = withCookie(replicaUrl, cookie);
    await warm(onSecond);
    const signedOut = await fetch(`${system.url}/api/auth/sign-out`, {
      method: "POST",
      headers: { cookie, origin: new URL(system.url).origin, "content-type": "application/json" },
      body: "{}",
    });
    expect(signedOut.status).toBe(200);
    expect((await onSecond.get("/api/weight")).status).toBe(401);
  });

  it("an OAuth access token revoked on one replica is a 401 at its very next request on the other", async () => {
    const agent = await connectAgent(system.url, "weight:read");
    const onSecond = client(replicaUrl, agent.tokens.access_token);
    await warm(onSecond);
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(agent.as, agent.client, oauth.None(), agent.tokens.access_token, { [oauth.allowInsecureRequests]: true }),
    );
    expect((await onSecond.get("/api/weight")).status).toBe(401);
  });

  it("a deleted account's key, session and token are 401s at their very next request on the other replica", async () => {
    const { email, key } = await system.account();
    const cookie = await signIn(system.url, email, "deleting");
    const agent = await connectAgent(system.url, "weight:read", { email });
    const onSecond = [client(replicaUrl, key), withCookie(replicaUrl, cookie), client(replicaUrl, agent.tokens.access_token)];
    for (const api of onSecond) await warm(api);
    expect((await withCookie(system.url, cookie).delete("/api/account")).status).toBe(202);
    for (const api of onSecond) expect((await api.get("/api/weight")).status).toBe(401);
  });
});

describe("a replica that loses NATS", () => {
  it("stops trusting its cache: a key revoked meanwhile is a 401 at its next request, a valid one still a 200", async () => {
    const nats = await startPrivateNats();
    // A replica on a NATS of its own: it hears no revocation from the first gateway at all, so only the loss
    // of its connection, not a broadcast, can make it read the key again.
    const lonely = await startReplica(system, "warn", { NATS_URL: nats.url });
    try {
      const { session } = await newAccount();
      const [revoked, kept] = [await session.post("/api/keys", { name: "revoked" }), await session.post("/api/keys", { name: "kept" })];
      await warm(client(lonely.url, revoked.body.key));
      await warm(client(lonely.url, kept.body.key));
      await nats.stop("SIGKILL");
      await expect.poll(() => lonely.log(), { timeout: 10_000 }).toContain("credential cache off");
      expect((await session.delete(`/api/keys/${revoked.body.id}`)).status).toBe(200);
      expect((await client(lonely.url, revoked.body.key).get("/api/weight")).status).toBe(401);
      expect((await client(lonely.url, kept.body.key).get("/api/weight")).status).toBe(200);
    } finally {
      await lonely.stop();
      await nats.close();
    }
  });
});
