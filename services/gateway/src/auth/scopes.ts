import { grantedOnlyScopes, type Scope } from "@fit/contracts";
import type { AuthenticatedCaller } from "../identity/credential.ts";

/**
 * A credential without scopes carries the account's full access, except the granted-only scopes, which a session
 * holds and a key only by name; an OAuth token never holds them, whatever it lists
 * (docs/decisions/0007-api-keys-and-scopes.md, docs/decisions/0019-credential-kinds-and-granted-only-scopes.md,
 * docs/decisions/0020-oauth-for-agents.md).
 */
export const hasScope = ({ scopes, credential }: AuthenticatedCaller, scope: Scope): boolean => {
  if (credential.kind === "oauth" && grantedOnlyScopes.includes(scope)) return false;
  return scopes === null ? credential.kind === "session" || !grantedOnlyScopes.includes(scope) : scopes.includes(scope);
};

export const insufficientScopeHeader = (scope: Scope) => `Bearer error="insufficient_scope", scope="${scope}"`;
