import type { Scope } from "@fit/contracts";
import type { Caller } from "@fit/service-kit";

/** A credential without scopes carries the account's full access (docs/decisions/0007-api-keys-and-scopes.md). */
export const hasScope = (caller: Caller, scope: Scope): boolean =>
  caller.scopes === null || caller.scopes.includes(scope);

export const insufficientScopeHeader = (scope: Scope) => `Bearer error="insufficient_scope", scope="${scope}"`;
