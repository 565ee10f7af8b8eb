// The routes that exchange something for a credential (the OAuth token and revocation endpoints, a sign-in link
// followed, a consent given) share one budget per client address: docs/security.md sections 8 and 26.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startSystem, type System } from "./support/system.ts";

let system: System;
const LIMIT = 3;

beforeAll(async () => {
  system = await startSystem({ databaseUrl: inject("databaseUrl"), natsUrl: inject("natsUrl"), env: { EXCHANGE_LIMIT_PER_ADDRESS: String(LIMIT) } });
});
afterAll(() => system?.stop());

const form = (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${system.url}${path}`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body: new URLSearchParams(fields).toString() });

describe("the exchange routes' rate limit", () => {
  it("answers 429 with Retry-After past the budget, on the token, revocation, sign-in link and consent routes alike", async () => {
    const token = () => form("/api/auth/oauth2/token", { grant_type: "authorization_code", code: "guessed", client_id: "nobody", code_verifier: "x".repeat(43) });
    const statuses: number[] = [];
    for (let i = 0; i <= LIMIT; i++) statuses.push((await token()).status);
    expect(statuses.slice(0, LIMIT).every((status) => status !== 429), statuses.join()).toBe(true);
    const limited = await token();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    const others = [
      await form("/api/auth/oauth2/revoke", { token: "guessed", client_id: "nobody" }),
      await fetch(`${system.url}/api/auth/magic-link/verify?token=guessed`, { redirect: "manual" }),
      await form("/oauth/consent", { decision: "allow", oauth_query: "sig=guessed" }, { origin: new URL(system.url).origin }),
    ];
    expect(others.map((response) => response.status)).toEqual([429, 429, 429]);
  });
});
