// Resolved credentials kept in this process for a short while, so a request costs no database round trip
// (docs/decisions/0027-credential-cache.md). Revocations reach every replica's cache over the bus; while this
// replica cannot be sure to hear them, it keeps nothing.
import { hash } from "node:crypto";
import type { AuthenticatedCaller } from "./credential.ts";

/** What a credential resolves to, held in the cache. */
export interface ResolvedCredential {
  caller: AuthenticatedCaller;
  /** When the credential itself expires (ms since the epoch), or null when it does not. */
  expiresAt: number | null;
}

/** What a revocation makes invalid: one credential by its id (key, session or token jti), or all of an account's. */
export type Invalidation = { credentialId: string } | { accountId: string };

export interface CredentialCacheOptions {
  /** Entries held at most; the oldest goes first. */
  maxEntries: number;
  /** How long an entry is trusted at most; 0 turns the cache off. */
  ttlMs: number;
}

/**
 * SHA-256, base64url: a credential is never held or compared as itself. The one-shot `hash` (node ≥ 20.12) costs a
 * third of a `createHash` object's ~0.9 µs, and runs on every request.
 */
export const credentialDigest = (secret: string): string => hash("sha256", secret, "base64url");

const matches = (caller: AuthenticatedCaller, what: Invalidation) =>
  "credentialId" in what ? caller.credential.id === what.credentialId : caller.accountId === what.accountId;

export type CredentialCache = ReturnType<typeof createCredentialCache>;

export function createCredentialCache({ maxEntries, ttlMs }: CredentialCacheOptions) {
  const entries = new Map<string, { resolved: ResolvedCredential; until: number }>();
  /** Off until the invalidations' subscription is confirmed, and whenever it may be missing some. */
  let trusted = false;
  /** Moves on every invalidation: a read that began before one may predate the revocation, so it is not kept. */
  let generation = 0;

  return {
    /**
     * The caller behind the credential whose digest is `key`: from memory when held, fresh and trusted, and then
     * refused with `expired()` once the credential's own expiry has passed; otherwise `load()`s it (which refuses
     * what is invalid) and remembers it, unless something was invalidated while it loaded.
     */
    async resolve(key: string, load: () => Promise<ResolvedCredential>, expired: () => Error, now = Date.now()): Promise<AuthenticatedCaller> {
      const held = entries.get(key);
      if (held && trusted && held.until > now) {
        if (held.resolved.expiresAt !== null && held.resolved.expiresAt <= now) {
          entries.delete(key);
          throw expired();
        }
        return held.resolved.caller;
      }
      if (held) entries.delete(key);
      const before = generation;
      const resolved = await load();
      if (trusted && ttlMs > 0 && before === generation) {
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
        entries.set(key, { resolved, until: now + ttlMs });
      }
      return resolved.caller;
    },

    /** Drops what a revocation made invalid (and keeps no read that began before it). */
    invalidate(what: Invalidation) {
      generation++;
      for (const [key, { resolved }] of entries) if (matches(resolved.caller, what)) entries.delete(key);
    },

    /** Drops everything (an invalidation that could not be read). */
    clear() {
      generation++;
      entries.clear();
    },

    /** Whether every invalidation is being heard: when not, everything held is dropped and nothing is kept. */
    setTrusted(heard: boolean) {
      generation++;
      trusted = heard;
      if (!heard) entries.clear();
    },

    size: () => entries.size,
  };
}
