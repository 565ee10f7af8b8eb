import { Scope, type ApiKey } from "@fit/contracts";
import { keyScopes } from "../identity/api-key-credential.ts";
import type { ApiKeyListing } from "../store/identity-store.ts";

/**
 * A stored key as its owner sees it. Scopes this version does not know are left out of the list, and a key whose
 * scopes cannot be read (which the gateway refuses) is shown with none.
 */
export const apiKeyView = (row: ApiKeyListing): ApiKey => {
  const scopes = keyScopes(row.permissions);
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    start: row.start,
    scopes: scopes === null ? null : (scopes ?? []).filter((scope): scope is Scope => Scope.safeParse(scope).success),
    createdAt: row.createdAt.getTime(),
    lastUsedAt: row.lastRequest?.getTime() ?? null,
    expiresAt: row.expiresAt?.getTime() ?? null,
  };
};
