// Sign-in through an OpenID Connect provider, end to end: a real oidc-provider started here, the gateway over
// HTTP, the browser's part done by hand (docs/decisions/0024-identity-provider-sign-in.md, docs/security.md).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { buildGateway, loadGatewayConfig } from "@fit/gateway";
import { freePort, uniqueTag } from "@fit/testing";
import { browser, type Browser } from "./support/browser.ts";
import { client } from "./support/http.ts";
import { authorizationRequest, discover, insecure, oauth, register } from "./support/oauth-agent.ts";
import { startIdentityProvider, type IdentityProvider } from "./support/oidc-provider.ts";
import { printedLink } from "./support/sign-in.ts";
import { startSystem, type System } from "./support/system.ts";

const BUDGET_MS = 3000;
let idp: IdentityProvider;
let system: System;
let origin: string;

beforeAll(async () => {
  // The provider must know the gateway's redirect URI before the gateway (which reads its discovery) starts.
  const port = await freePort();
  idp = await startIdentityProvider({ redirectUri: `http://127.0.0.1:${port}/api/auth/callback/oidc` });
  system = await startSystem({
    databaseUrl: inject("databaseUrl"),
    natsUrl: inject("natsUrl"),
    port,
    env: {
      OIDC_ISSUER: idp.issuer,
      OIDC_CLIENT_ID: idp.client.client_id,
      OIDC_CLIENT_SECRET: idp.client.client_secret,
      IDENTITY_PROVIDER_TIMEOUT_MS: String(BUDGET_MS),
    },
  });
  origin = new URL(system.url).origin;
});
afterAll(async () => {
  await system?.stop();
  await idp?.stop();
});

const json = (body: unknown, from = origin) => ({
  method: "POST",
  headers: { "content-type": "application/json", origin: from },
  body: JSON.stringify(body),
});

const landings = { callbackURL: "/welcome", errorCallbackURL: "/sign-in-failed" };

const startSignIn = (as: Browser, body: Record<string, string> = landings) =>
  as.request(new URL("/api/auth/sign-in/social", system.url), json({ provider: "oidc", ...body }));

/** Starts at the gateway, signs in at the provider as `account`, and comes back to the gateway's callback. */
const signInAs = async (account: string, body: Record<string, string> = landings) => {
  const as = browser();
  const started = await startSignIn(as, body);
  expect(started.status).toBe(200);
  const authorizeUrl = new URL(((await started.json()) as { url: string }).url);
  const toCallback = await as.follow(authorizeUrl, origin, (location) => {
    if (location.pathname.startsWith("/interaction/")) location.searchParams.set("account", account);
    return location;
  });
  expect(toCallback.url.pathname).toBe("/api/auth/callback/oidc");
  const since = Date.now();
  const callback = await as.request(toCallback.url);
  const landedAt = new URL(callback.headers.get("location") ?? "/", system.url);
  return { as, authorizeUrl, callback, landedAt, callbackMs: Date.now() - since };
};

const accountOf = async (as: Browser) => {
  const response = await as.request(new URL("/api/auth/get-session", system.url));
  return ((await response.json()) as { user: { id: string } } | null)?.user.id;
};

/** Signs in by magic link; without SMTP the gateway prints the link on stdout, where an operator would copy it. */
const magicLinkSignIn = async (email: string) => {
  const as = browser();
  const link = await printedLink(email, async () => {
    expect((await as.request(new URL("/api/auth/sign-in/magic-link", system.url), json({ email, callbackURL: "/" }))).status).toBe(200);
  });
  expect((await as.request(link)).status).toBe(302);
  return { as, accountId: await accountOf(as) };
};

const email = () => `${uniqueTag("idp")}@example.com`;

describe("OpenID Connect sign-in", () => {
  it("reads the provider's endpoints from discovery and signs a new person in with the code flow and PKCE (S256)", async () => {
    idp.addUser("new-person", { email: email(), emailVerified: true });
    const { as, authorizeUrl, callback, landedAt } = await signInAs("new-person");
    // The authorization endpoint came from the issuer's discovery document; nothing but the issuer was configured.
    expect(authorizeUrl.origin + authorizeUrl.pathname).toBe(`${idp.issuer}/auth`);
    expect(authorizeUrl.searchParams.get("response_type")).toBe("code");
    expect(authorizeUrl.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorizeUrl.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(idp.state.authorizeRequests.at(-1)?.searchParams.get("code_challenge_method")).toBe("S256");
    expect([callback.status, landedAt.pathname]).toEqual([302, "/welcome"]);
    expect(callback.headers.getSetCookie().join()).toMatch(/better-auth\.session_token=[^;]+;.*HttpOnly/i);
    const dashboard = await as.request(new URL("/api/dashboard", system.url));
    expect(dashboard.status).toBe(200);
  });

  it("signs a verified email in to the existing magic-link account, and again the next time (no duplicate)", async () => {
    const address = email();
    const { accountId } = await magicLinkSignIn(address);
    expect(accountId).toBeDefined();
    idp.addUser("verified-owner", { email: address.toUpperCase(), emailVerified: true });
    const first = await signInAs("verified-owner");
    expect(first.landedAt.pathname).toBe("/welcome");
    expect(await accountOf(first.as)).toBe(accountId);
    const second = await signInAs("verified-owner");
    expect(await accountOf(second.as)).toBe(accountId);
    expect((await second.as.request(new URL("/api/dashboard", system.url))).status).toBe(200);
  });

  it("never links an unverified email to an existing account: sign-in ends at the error page, without a session", async () => {
    const address = email();
    await magicLinkSignIn(address);
    idp.addUser("unverified-claimant", { email: address, emailVerified: false });
    const { as, callback, landedAt } = await signInAs("unverified-claimant");
    expect(callback.status).toBe(302);
    expect(landedAt.pathname + landedAt.search).toBe("/sign-in-failed?error=account_not_linked");
    expect(as.cookies(origin)).not.toMatch(/session_token/);
    expect((await as.request(new URL("/api/dashboard", system.url))).status).toBe(401);
  });

  it("lets an unverified email open a new account, which loses the provider once the mailbox's owner signs in", async () => {
    const address = email();
    idp.addUser("early-claimant", { email: address, emailVerified: false });
    const claimed = await signInAs("early-claimant");
    const claimedAccount = await accountOf(claimed.as);
    expect(claimedAccount).toBeDefined();
    // The owner proves the mailbox: same account, and the unproven provider link and its sessions are gone.
    const owner = await magicLinkSignIn(address);
    expect(owner.accountId).toBe(claimedAccount);
    expect((await claimed.as.request(new URL("/api/dashboard", system.url))).status).toBe(401);
    const again = await signInAs("early-claimant");
    expect(again.landedAt.search).toBe("?error=account_not_linked");
  });
});

/** The browser's signed-in person lets an agent in (authorize, consent), which takes an access and a refresh token. */
const grantAgent = async (as: Browser) => {
  const server = await discover(system.url);
  const agent = await register(server, "Claimant's agent");
  const resource = `${system.url}/mcp`;
  const { url, verifier, state } = await authorizationRequest(server, agent, "weight:read offline_access", resource);
  const consentLocation = new URL((await as.request(url, { headers: { accept: "text/html" } })).headers.get("location") ?? "", system.url);
  expect(consentLocation.pathname).toBe("/oauth/consent");
  await (await as.request(consentLocation, { headers: { accept: "text/html" } })).arrayBuffer();
  const decided = await as.request(new URL("/oauth/consent", system.url), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin },
    body: new URLSearchParams({ decision: "allow", oauth_query: consentLocation.search.slice(1) }).toString(),
  });
  const params = oauth.validateAuthResponse(server, agent, new URL(decided.headers.get("location") ?? ""), state);
  const tokens = await oauth.processAuthorizationCodeResponse(server, agent,
    await oauth.authorizationCodeGrantRequest(server, agent, oauth.None(), params, "http://127.0.0.1:9/callback", verifier, { ...insecure, additionalParameters: { resource } }));
  const refresh = async () => {
    const response = await oauth.refreshTokenGrantRequest(server, agent, oauth.None(), tokens.refresh_token!, { ...insecure, additionalParameters: { resource } });
    return oauth.processRefreshTokenResponse(server, agent, response).then(() => "refreshed", (error: { error?: string }) => error.error);
  };
  return { access: client(system.url, tokens.access_token), refresh };
};

describe("an early claimant, once the mailbox's owner proves the email", () => {
  it("keeps nothing: its sessions, the keys it made and its agents' grants end at once, on every replica", async () => {
    const address = email();
    idp.addUser("hijacker", { email: address, emailVerified: false });
    const claimed = await signInAs("hijacker");
    const cookie = claimed.as.cookies(origin);
    const key = await claimed.as.request(new URL("/api/keys", system.url), json({ name: "kept for later" }));
    expect(key.status).toBe(200);
    const { key: secret } = (await key.json()) as { key: string };
    const agent = await grantAgent(claimed.as);
    expect(await agent.refresh()).toBe("refreshed");

    // Another gateway on the same database and NATS, holding the claimant's session and key in its cache.
    const replica = await system.replica();
    const held = [client(replica, secret), client(replica), client(system.url, secret), agent.access];
    const headersOf = (i: number): Record<string, string> => (i === 1 ? { cookie } : {});
    for (let round = 0; round < 3; round++) {
      for (const [i, api] of held.entries()) expect((await api.get("/api/weight", headersOf(i))).status).toBe(200);
    }

    const owner = await magicLinkSignIn(address);
    for (const [i, api] of held.entries()) expect((await api.get("/api/weight", headersOf(i))).status, `credential ${i}`).toBe(401);
    expect((await claimed.as.request(new URL("/api/weight", system.url))).status).toBe(401);
    expect(await agent.refresh()).toBe("invalid_grant");
    // The owner's own session, made by the proof, works, and inherits neither keys nor connected apps.
    expect((await owner.as.request(new URL("/api/keys", system.url))).status).toBe(200);
    expect(await (await owner.as.request(new URL("/api/keys", system.url))).json()).toEqual([]);
    expect(await (await owner.as.request(new URL("/api/connected-apps", system.url))).json()).toEqual({ items: [] });
  });
});

describe("a failing provider", () => {
  it("ends at the error page when its token endpoint answers 500", async () => {
    idp.addUser("token-500", { email: email(), emailVerified: true });
    idp.state.tokenMode = "fail";
    try {
      const chosen = await signInAs("token-500");
      expect([chosen.callback.status, chosen.landedAt.pathname + chosen.landedAt.search]).toEqual([302, "/sign-in-failed?error=invalid_code"]);
      // Without an errorCallbackURL, better-auth's own page says what happened.
      const plain = await signInAs("token-500", { callbackURL: "/welcome" });
      expect(plain.landedAt.pathname + plain.landedAt.search).toBe("/api/auth/error?error=invalid_code");
      const page = await fetch(plain.landedAt);
      expect([page.status, page.headers.get("content-type")]).toEqual([200, expect.stringMatching(/^text\/html/)]);
      expect(await page.text()).toContain("invalid_code");
    } finally {
      idp.state.tokenMode = "ok";
    }
  });

  it("answers 504 in the envelope within the budget when its token endpoint never answers", async () => {
    idp.addUser("token-hang", { email: email(), emailVerified: true });
    idp.state.tokenMode = "hang";
    try {
      const { callback, callbackMs } = await signInAs("token-hang");
      expect([callback.status, await callback.json()]).toEqual([504, { error: "the identity provider did not answer in time" }]);
      expect(callbackMs).toBeGreaterThanOrEqual(BUDGET_MS - 100);
      expect(callbackMs).toBeLessThan(BUDGET_MS + 2000);
    } finally {
      idp.state.tokenMode = "ok";
    }
  });

  it("whose issuer is unreachable at start leaves the gateway up: magic links and other providers work, its sign-in answers 503", async () => {
    const port = await freePort();
    const dataDir = await mkdtemp(join(tmpdir(), "fit-idp-"));
    const gatewayUrl = `http://127.0.0.1:${port}`;
    const gateway = await buildGateway({
      config: loadGatewayConfig({
        ...system.env,
        DATA_DIR: dataDir,
        PUBLIC_URL: gatewayUrl,
        OIDC_ISSUER: `http://127.0.0.1:${await freePort()}`,
        OIDC_CLIENT_ID: "unused",
        OIDC_CLIENT_SECRET: "unused",
        GOOGLE_CLIENT_ID: "google-client",
        GOOGLE_CLIENT_SECRET: "unused",
        IDENTITY_PROVIDER_TIMEOUT_MS: String(BUDGET_MS),
      }),
    });
    try {
      await gateway.listen({ host: "127.0.0.1", port });
      const as = browser();
      const oidc = await as.request(new URL("/api/auth/sign-in/social", gatewayUrl), json({ provider: "oidc", callbackURL: "/" }, gatewayUrl));
      expect(oidc.status).toBe(503);
      expect(((await oidc.json()) as { error: string }).error).toMatch(/identity provider oidc is unavailable/);
      // The Google preset needs no discovery: its start answers Google's authorization URL, with PKCE.
      const google = await as.request(new URL("/api/auth/sign-in/social", gatewayUrl), json({ provider: "google", callbackURL: "/" }, gatewayUrl));
      const googleUrl = new URL(((await google.json()) as { url: string }).url);
      expect([googleUrl.origin, googleUrl.searchParams.get("client_id"), googleUrl.searchParams.get("code_challenge_method")]).toEqual(["https://accounts.google.com", "google-client", "S256"]);
      expect(googleUrl.searchParams.get("redirect_uri")).toBe(`${gatewayUrl}/api/auth/callback/google`);
      // Not configured at all: the routes answer as if they were not there.
      expect((await as.request(new URL("/api/auth/sign-in/social", gatewayUrl), json({ provider: "github" }, gatewayUrl))).status).toBe(404);
      expect((await as.request(new URL("/api/auth/callback/github?code=x&state=y", gatewayUrl))).status).toBe(404);
      const capture = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
      try {
        expect((await as.request(new URL("/api/auth/sign-in/magic-link", gatewayUrl), json({ email: email() }, gatewayUrl))).status).toBe(200);
      } finally {
        capture.mockRestore();
      }
    } finally {
      await gateway.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe("sign-in starts", () => {
  it("refuse a foreign Origin or landing page, and an unconfigured provider, before the rate limit counts them", async () => {
    const as = browser();
    const start = (body: Record<string, string>, from = origin) =>
      as.request(new URL("/api/auth/sign-in/social", system.url), json({ provider: "oidc", ...body }, from));
    expect((await start({ callbackURL: "/" }, "https://evil.example")).status).toBe(403);
    for (const field of ["callbackURL", "errorCallbackURL", "newUserCallbackURL"]) {
      expect((await start({ [field]: "https://evil.example/x" })).status, field).toBe(403);
    }
    expect((await start({ provider: "github" })).status).toBe(404);
    expect((await as.request(new URL("/api/auth/callback/google?code=x&state=y", system.url))).status).toBe(404);
  });

  it("are rate-limited per client address, as magic links are", async () => {
    const as = browser();
    const statuses: number[] = [];
    for (let i = 0; i < 25 && !statuses.includes(429); i++) statuses.push((await startSignIn(as)).status);
    expect(statuses.at(-1)).toBe(429);
    expect(new Set(statuses.slice(0, -1))).toEqual(new Set([200]));
  });
});
