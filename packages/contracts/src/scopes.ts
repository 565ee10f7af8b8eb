import { z } from "zod";

/** Fine-grained scopes for API keys and agent tokens (docs/decisions/0007-api-keys-and-scopes.md). A credential without scopes has them all. */
export const scopes = [
  "weight:read", "weight:write",
  "measurements:read", "measurements:write",
  "targets:read", "targets:write",
  "nutrition:read", "nutrition:write",
  "workouts:read", "workouts:write",
  "profile:read", "profile:write",
  "imports:read", "imports:write",
  "coach",
  "dashboard:read",
  "keys",
  "account",
] as const;

export const Scope = z.enum(scopes);
export type Scope = z.infer<typeof Scope>;

/**
 * Scopes over the account itself (managing keys, deleting the account): held by a session cookie, and by a key
 * only when granted by name. A key without scopes has every other scope, never these
 * (docs/decisions/0019-credential-kinds-and-granted-only-scopes.md).
 */
export const grantedOnlyScopes: readonly Scope[] = ["keys", "account"];

/** What an agent (OAuth client) may ask for: every scope but the granted-only ones, which no OAuth token holds. */
export const agentScopes: readonly Scope[] = scopes.filter((scope) => !grantedOnlyScopes.includes(scope));

/** What the authorization server offers and advertises: the agent scopes and offline_access (a refresh token). */
export const oauthScopes: readonly string[] = [...agentScopes, "offline_access"];
