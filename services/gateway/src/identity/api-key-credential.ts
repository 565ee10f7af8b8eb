// Resolves `Authorization: Bearer <API key>` to its account, read-only, in one database statement.
//
// Why not auth.api.verifyApiKey: in database storage mode @better-auth/api-key 1.7.5 writes the key row on
// every successful verify (lastRequest, then updatedAt: two UPDATEs after its SELECT, even with rate limiting
// off), and the account's email would cost a fourth query. The gateway rate-limits elsewhere, so usage
// counters buy nothing. This applies the plugin's own rules to its own row: the same hash (the plugin's
// defaultKeyHasher), disabled, expired and used-up keys refused.
import { createHash } from "node:crypto";
import { z } from "zod";
import { AppError } from "@fit/contracts";
import type { IdentityStore } from "../store/identity-store.ts";
import { API_KEY_PREFIX } from "./auth.ts";
import type { AuthenticatedCaller } from "./credential.ts";

// The plugin's default generator: the prefix and 64 ASCII letters. Anything else is refused unread.
const KEY_SHAPE = new RegExp(`^${API_KEY_PREFIX}[A-Za-z]{64}$`);

/** What the `permissions` column holds for a scoped key (absent for a full-access key). */
const KeyPermissions = z.object({ scopes: z.array(z.string()).min(1) });

const unauthenticated = (why: string) => new AppError("unauthenticated", `API key ${why}`);

/** Reads the bearer token out of an Authorization header value, or explains why it is unusable. */
export function bearerKey(authorization: string): string {
  const match = /^Bearer +(\S+) *$/i.exec(authorization);
  if (!match?.[1]) throw new AppError("unauthenticated", "malformed Authorization header: expected Bearer <API key>");
  if (!KEY_SHAPE.test(match[1])) throw unauthenticated("is malformed");
  return match[1];
}

/**
 * The plugin's defaultKeyHasher (SHA-256, base64url without padding), computed with node:crypto: the plugin's
 * WebCrypto digest costs about 40 µs of the gateway's thread per request, this about 2 µs. A unit test holds
 * the two equal.
 */
export const hashApiKey = (key: string): string => createHash("sha256").update(key, "utf8").digest("base64url");

/** How many unknown keys are remembered, and for how long: enough to absorb a guessing flood, bounded in memory. */
const UNKNOWN_KEYS_MAX = 10_000;
const UNKNOWN_KEY_TTL_MS = 5 * 60_000;

/**
 * Resolves API keys to callers. A key that matches no row is remembered for a while, so a client repeating a
 * wrong or revoked key costs one database lookup, not one per request (a new key is random: never remembered).
 */
export function createApiKeyResolver(store: Pick<IdentityStore, "findApiKey">) {
  const unknown = new Map<string, number>();
  const remember = (hash: string, now: number) => {
    if (unknown.size >= UNKNOWN_KEYS_MAX) unknown.delete(unknown.keys().next().value as string);
    unknown.set(hash, now + UNKNOWN_KEY_TTL_MS);
  };
  return async (key: string, now = Date.now()): Promise<AuthenticatedCaller> => {
    const hash = hashApiKey(key);
    const until = unknown.get(hash);
    if (until !== undefined && until > now) throw unauthenticated("is not valid (unknown or revoked)");
    const row = await store.findApiKey(hash);
    if (!row) {
      remember(hash, now);
      throw unauthenticated("is not valid (unknown or revoked)");
    }
    if (row.enabled === false) throw unauthenticated("is disabled");
    if (row.expiresAt && row.expiresAt.getTime() <= now) throw unauthenticated("has expired");
    if (row.remaining === 0 && row.refillAmount === null) throw unauthenticated("has no uses left");
    return { accountId: row.accountId, email: row.email, scopes: scopesOf(row.permissions), credential: { kind: "api_key", id: row.id } };
  };
}

/** The scopes a key was granted (null: full access); unreadable ones fail closed. */
export function scopesOf(permissions: string | null): string[] | null {
  if (permissions === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(permissions);
  } catch {
    parsed = undefined;
  }
  const result = KeyPermissions.safeParse(parsed);
  // Fail closed: a key whose scopes cannot be read must not fall back to full access.
  if (!result.success) throw unauthenticated("has unreadable scopes");
  return result.data.scopes;
}
