import { grantedOnlyScopes, Scope, type ApiKey } from "@fit/contracts";
import { keyScopes } from "../identity/api-key-credential.ts";
import type { Credential } from "../identity/credential.ts";
import type { ApiKeyListing } from "../store/identity-store.ts";
import { signedInRecently } from "./recent-sign-in.ts";

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

/**
 * Handing on `keys` or `account` to a new key needs what using them for the account's gravest acts needs: a
 * session signed in within the last 10 minutes. A key may pass on what it holds (the scope check has made sure
 * it holds them by name); an older session may not, or minting a key would bypass the recent sign-in that
 * deleting the account asks for. The granted-only scope asked for that needs it, or null.
 */
export const grantNeedsRecentSignIn = (maker: Credential, requested: readonly Scope[] | undefined, now: number): Scope | null => {
  if (maker.kind !== "session" || signedInRecently(maker, now)) return null;
  return requested?.find((scope) => grantedOnlyScopes.includes(scope)) ?? null;
};

/** When a key made by `maker` must stop working at the latest: an expiring key's keys expire with it. Null: no bound. */
export const expiryBoundOf = (maker: Credential): Date | null =>
  maker.kind === "api_key" && maker.expiresAt !== null ? new Date(maker.expiresAt) : null;
