import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { grantedOnlyScopes, scopes, type Scope } from "@fit/contracts";
import { hasScope } from "../../src/auth/scopes.ts";
import type { Credential } from "../../src/identity/credential.ts";

const session: Credential = { kind: "session", id: randomUUID(), createdAt: Date.now() };
const apiKey: Credential = { kind: "api_key", id: randomUUID(), expiresAt: null };
const caller = (credential: Credential, granted: Scope[] | null) => ({ accountId: randomUUID(), email: "a@example.com", scopes: granted, credential });
const dataScopes = scopes.filter((s) => !grantedOnlyScopes.includes(s));

describe("hasScope", () => {
  it("gives a session cookie every scope, the granted-only ones included", () => {
    for (const scope of scopes) expect(hasScope(caller(session, null), scope), scope).toBe(true);
  });

  it("gives a key without scopes every data scope but neither key management nor account deletion", () => {
    for (const scope of dataScopes) expect(hasScope(caller(apiKey, null), scope), scope).toBe(true);
    expect(grantedOnlyScopes).toEqual(["keys", "account"]);
    for (const scope of grantedOnlyScopes) expect(hasScope(caller(apiKey, null), scope), scope).toBe(false);
  });

  it("never gives an OAuth token a granted-only scope, even one it lists", () => {
    const token = caller({ kind: "oauth", id: randomUUID(), clientId: "agent" }, ["keys", "account", "weight:read"]);
    expect(scopes.filter((scope) => hasScope(token, scope))).toEqual(["weight:read"]);
  });

  it("gives a scoped key exactly what it names", () => {
    const key = caller(apiKey, ["keys", "weight:read"]);
    for (const scope of scopes) expect(hasScope(key, scope), scope).toBe(scope === "keys" || scope === "weight:read");
  });
});
