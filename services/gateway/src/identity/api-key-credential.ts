// Resolves `Authorization: Bearer <API key>` to its account, read-only, in one database statement.
//
// Why not auth.api.verifyApiKey: in database storage mode @better-auth/api-key 1.7.5 writes the key row on
// every successful verify (lastRequest, then updatedAt: two UPDATEs after its SELECT, even with rate limiting
// off), and the account's email would cost a fourth query. The gateway rate-limits elsewhere, so usage
// counters buy nothing. This applies the plugin's own rules to its own row: the same hash (the plugin's
// defaultKeyHasher), disabled, expired and used-up keys refused.
import { z } from "zod";
import { AppError } from "@fit/contracts";
import type { IdentityStore } from "../store/identity-store.ts";
import { API_KEY_PREFIX } from "./auth.ts";
import type { AuthenticatedCaller } from "./credential.ts";
import { credentialDigest, type CredentialCache, type ResolvedCredential } from "./credential-cache.ts";

// The plugin's default generator: the prefix and 64 ASCII letters. Anything else is refused unread.
const KEY_SHAPE = new RegExp(`^${API_KEY_PREFIX}[A-Za-z]{64}$`);

/** What the `permissions` column holds for a scoped key (absent for a full-access key). */
const KeyPermissions = z.object({ scopes: z.array(z.string()).min(1) });

const unauthenticated = (why: string) => new AppError("unauthenticated", `API key ${why}`);

/** Reads the bearer token out of an Authorization header value, or explains why it is unusable. */
export function bearerToken(authorization: string): string {
  const match = /^Bearer +(\S+) *$/i.exec(authorization);
  if (!match?.[1]) throw new AppError("unauthenticated", "malformed Authorization header: expected Bearer <API key or access token>");
  return match[1];
}

/** An API key carries the prefix; any other bearer token is an OAuth access token. */
export const isApiKey = (token: string) => token.startsWith(API_KEY_PREFIX);

/**
 * The plugin's defaultKeyHasher (SHA-256, base64url without padding), computed with node:crypto: the plugin's
 * WebCrypto digest costs about 40 µs of the gateway's thread per request, this about 2 µs. A unit test holds
 * the two equal.
 */
export const hashApiKey: (key: string) => string = credentialDigest;

/** How many unknown keys are remembered, and for how long: enough to absorb a guessing flood, bounded in memory. */
const UNKNOWN_KEYS_MAX = 10_000;
const UNKNOWN_KEY_TTL_MS = 5 * 60_000;
/**
 * `lastUsedAt` is written at most this often per key, so a busy key costs one UPDATE a minute, not one a request.
 * Only a read of the row decides, so a key served from the credential cache is recorded when its entry is renewed.
 */
const LAST_USE_RESOLUTION_MS = 60_000;

/**
 * Resolves API keys to callers, through the credential cache. A key that matches no row is remembered for a
 * while, so a client repeating a wrong or revoked key costs one database lookup, not one per request (a new key
 * is random: never remembered).
 */
export function createApiKeyResolver(store: Pick<IdentityStore, "findApiKey" | "touchApiKey">, cache: CredentialCache) {
  const unknown = new Map<string, number>();
  const remember = (hash: string, now: number) => {
    if (unknown.size >= UNKNOWN_KEYS_MAX) unknown.delete(unknown.keys().next().value as string);
    unknown.set(hash, now + UNKNOWN_KEY_TTL_MS);
  };
  const read = async (hash: string, now: number): Promise<ResolvedCredential> => {
    const row = await store.findApiKey(hash);
    if (!row) {
      remember(hash, now);
      throw unauthenticated("is not valid (unknown or revoked)");
    }
    if (row.enabled === false) throw unauthenticated("is disabled");
    if (row.expiresAt && row.expiresAt.getTime() <= now) throw unauthenticated("has expired");
    if (row.remaining === 0 && row.refillAmount === null) throw unauthenticated("has no uses left");
    const scopes = scopesOf(row.permissions);
    if (!row.lastRequest || now - row.lastRequest.getTime() >= LAST_USE_RESOLUTION_MS) await store.touchApiKey(row.id);
    return {
      caller: { accountId: row.accountId, email: row.email, scopes, credential: { kind: "api_key", id: row.id, expiresAt: row.expiresAt?.getTime() ?? null } },
      expiresAt: row.expiresAt?.getTime() ?? null,
    };
  };
  return async (key: string, now = Date.now()): Promise<AuthenticatedCaller> => {
    if (!KEY_SHAPE.test(key)) throw unauthenticated("is malformed");
    const hash = hashApiKey(key);
    const until = unknown.get(hash);
    if (until !== undefined && until > now) throw unauthenticated("is not valid (unknown or revoked)");
    return cache.resolve(hash, () => read(hash, now), () => unauthenticated("has expired"), now);
  };
}

function scopesOf(permissions: string | null): string[] | null {
  const scopes = keyScopes(permissions);
  // Fail closed: a key whose scopes cannot be read must not fall back to full access.
  if (scopes === undefined) throw unauthenticated("has unreadable scopes");
  return scopes;
}

/** A key's scopes from its `permissions` column: null for a full-access key, undefined when unreadable. */
export function keyScopes(permissions: string | null): string[] | null | undefined {
  if (permissions === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(permissions);
  } catch {
    parsed = undefined;
  }
  const result = KeyPermissions.safeParse(parsed);
  return result.success ? result.data.scopes : undefined;
}
