import { describe, expect, it } from "vitest";
import { createHttpApp } from "@fit/service-kit";
import { authRoutesPlugin } from "../../src/routes/auth.ts";

const ORIGIN = "https://fit.example";
const session = { session: { token: "raw-session-token", expiresAt: "2026-12-01T00:00:00.000Z" }, user: { id: "u", email: "a@example.com" } };

/** The sign-in routes in front of a stand-in for better-auth, counting what reaches it and the rate limit. */
const build = () => {
  const seen = { handler: 0, limits: 0 };
  const app = createHttpApp({ name: "gateway", logger: false, readiness: async () => {} });
  authRoutesPlugin(app, {
    identity: {
      handler: async () => {
        seen.handler++;
        return Response.json(session);
      },
    },
    publicUrl: ORIGIN,
    trustedOrigins: [ORIGIN],
    limits: [async () => void seen.limits++],
    providerSignIn: { configured: [], ready: async () => [], timeoutMs: 1000, limits: [] },
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
    expect(seen).toEqual({ handler: 0, limits: 0 });
    expect((await ask({ origin: ORIGIN }, { email: "v@example.com", callbackURL: "/home" })).statusCode).toBe(200);
    expect(seen).toEqual({ handler: 1, limits: 1 });
  });
});
