import { describe, expect, it } from "vitest";
import { createHttpApp } from "@fit/service-kit";
import { authRoutesPlugin } from "../../src/routes/auth.ts";

const ORIGIN = "https://fit.example";
const session = { session: { token: "raw-session-token", expiresAt: "2026-12-01T00:00:00.000Z" }, user: { id: "u", email: "a@example.com" } };

/** The sign-in routes in front of a stand-in for better-auth, counting what reaches it and the rate limit. */
const build = () => {
  const seen = { handler: 0, limits: 0, bodies: [] as unknown[] };
  const app = createHttpApp({ name: "gateway", logger: false, readiness: async () => {} });
  authRoutesPlugin(app, {
    identity: {
      handler: async (request) => {
        seen.handler++;
        if (request.method === "POST") seen.bodies.push(await request.json());
        return Response.json(session);
      },
      revokeAccessToken: async () => false,
      revokeAccessTokenId: async () => {},
      resolveCaller: async () => null,
    },
    publicUrl: ORIGIN,
    trustedOrigins: [ORIGIN],
    limits: [async () => void seen.limits++],
    registrationLimit: async () => {},
    exchangeLimit: async () => {},
    issuedByCode: { get: async () => null, compareAndSet: async () => 1 },
    providerSignIn: { configured: ["oidc", "github"], ready: async () => ["oidc"], timeoutMs: 1000, limits: [async () => void seen.limits++] },
  });
  return { app, seen };
};

describe("sign-in routes", () => {
  it("return the session without its token, which only the HttpOnly cookie carries", async () => {
    const { app } = build();
    const response = await app.inject({ method: "GET", url: "/api/auth/get-session" });
    expect(response.json()).toEqual({ session: { expiresAt: session.session.expiresAt }, user: session.user });
  });

  it("refuse a foreign or missing Origin, a bad body and a foreign callback before the rate limit counts them", async () => {
    const { app, seen } = build();
    const ask = (headers: Record<string, string>, body: unknown) =>
      app.inject({ method: "POST", url: "/api/auth/sign-in/magic-link", headers: { "content-type": "application/json", ...headers }, payload: JSON.stringify(body) });
    expect((await ask({ origin: "https://evil.example" }, { email: "v@example.com" })).statusCode).toBe(403);
    expect((await ask({}, { email: "v@example.com" })).statusCode).toBe(403);
    expect((await ask({ origin: ORIGIN }, { email: "not-an-email" })).statusCode).toBe(400);
    expect((await ask({ origin: ORIGIN }, { email: "v@example.com", callbackURL: "https://evil.example/x" })).statusCode).toBe(403);
    expect((await ask({ origin: ORIGIN }, { email: "v@example.com", callbackURL: "//evil.example/x" })).statusCode).toBe(403);
    expect(seen).toMatchObject({ handler: 0, limits: 0 });
    expect((await ask({ origin: ORIGIN }, { email: "v@example.com", callbackURL: "/home" })).statusCode).toBe(200);
    expect(seen).toMatchObject({ handler: 1, limits: 1 });
  });

  it("start provider sign-in only with a ready provider, after the same guards, forwarding only the documented fields", async () => {
    const { app, seen } = build();
    const start = (body: unknown, origin = ORIGIN) =>
      app.inject({ method: "POST", url: "/api/auth/sign-in/social", headers: { "content-type": "application/json", origin }, payload: JSON.stringify(body) });
    expect((await start({ provider: "oidc" }, "https://evil.example")).statusCode).toBe(403);
    expect((await start({ provider: "oidc", errorCallbackURL: "https://evil.example/x" })).statusCode).toBe(403);
    expect((await start({ provider: "google" })).statusCode).toBe(404);
    expect((await start({ provider: "github" })).json()).toEqual({ error: "identity provider github is unavailable: its discovery failed when the gateway started" });
    expect((await app.inject({ method: "GET", url: "/api/auth/callback/google?code=c&state=s" })).statusCode).toBe(404);
    expect(seen).toEqual({ handler: 0, limits: 0, bodies: [] });
    // A raw ID token would sign in without the redirect flow; it never reaches better-auth.
    expect((await start({ provider: "oidc", callbackURL: "/home", idToken: { token: "forged" } })).statusCode).toBe(200);
    expect(seen).toEqual({ handler: 1, limits: 1, bodies: [{ provider: "oidc", callbackURL: "/home" }] });
  });
});
