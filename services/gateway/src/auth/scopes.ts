import { grantedOnlyScopes, scopes as allScopes, type Scope } from "@fit/contracts";
import type { AuthenticatedCaller } from "../identity/credential.ts";

/**
 * A credential without scopes carries the account's full access, except the granted-only scopes, which a session
 * holds and a key only by name; an OAuth token never holds them, whatever it lists
 * (docs/decisions/0007-api-keys-and-scopes.md, docs/decisions/0019-credential-kinds-and-granted-only-scopes.md,
 * docs/decisions/0022-oauth-for-agents.md).
 */
export const hasScope = ({ scopes, credential }: AuthenticatedCaller, scope: Scope): boolean => {
  if (credential.kind === "oauth" && grantedOnlyScopes.includes(scope)) return false;
  return scopes === null ? credential.kind === "session" || !grantedOnlyScopes.includes(scope) : scopes.includes(scope);
};

export const insufficientScopeHeader = (scope: Scope) => `Bearer error="insufficient_scope", scope="${scope}"`;

/** What a key without scopes holds: every scope but the granted-only ones. */
const dataScopes = allScopes.filter((scope) => !grantedOnlyScopes.includes(scope));

/**
 * The first of `requested` (undefined: a key without scopes, i.e. every data scope) this credential does not
 * hold itself, or null: a key is never worth more than the credential that made it.
 */
export const ungrantableScope = (caller: AuthenticatedCaller, requested: readonly Scope[] | undefined): Scope | null =>
  (requested ?? dataScopes).find((scope) => !hasScope(caller, scope)) ?? null;
