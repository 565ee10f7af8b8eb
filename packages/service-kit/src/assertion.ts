import { createSigner, createVerifier } from "fast-jwt";
import { z } from "zod";
import { AppError } from "@fit/contracts";

/** Who is calling, as the gateway established it. Services trust this and nothing else. */
export const Caller = z.object({
  accountId: z.uuid(),
  email: z.string(),
  scopes: z.array(z.string()).nullable(),
});
export type Caller = z.infer<typeof Caller>;

export const ASSERTION_HEADER = "x-fit-assertion";
const ISSUER = "fit-gateway";
const AUDIENCE = "fit-services";
const TTL_MS = 60_000;

/** A signed assertion is handed out again for half its life, so the services' cache of verified ones hits. */
const REUSE_MS = TTL_MS / 2;
/** Bound on each cache below; a full one starts over (it refills from the next requests). */
const CACHE_ENTRIES = 10_000;

interface Held<T> {
  value: T;
  /** Until when (ms) it may be used. */
  until: number;
}

/** A small cache whose entries lapse at their own time. */
const expiringCache = <T>() => {
  const entries = new Map<string, Held<T>>();
  return {
    get(key: string, now: number): T | undefined {
      const held = entries.get(key);
      return held && now < held.until ? held.value : undefined;
    },
    set(key: string, value: T, until: number) {
      if (entries.size >= CACHE_ENTRIES) entries.clear();
      entries.set(key, { value, until });
    },
  };
};

// fast-jwt signs and verifies HS256 synchronously with node:crypto, about ten times cheaper than WebCrypto's
// async path. Both sides run on every request, so both remember their work: the gateway reuses a caller's
// assertion for half its life, and a service answers a token it verified already from memory until it
// expires (docs/decisions/0035-assertions-reused-and-remembered.md). One signer and verifier per secret.
const signers = new Map<string, (caller: Caller) => string>();
const verifiers = new Map<string, (token: string) => Caller>();

const signerFor = (secret: string) => {
  let sign = signers.get(secret);
  if (!sign) {
    const signToken = createSigner({ key: secret, algorithm: "HS256", iss: ISSUER, aud: AUDIENCE, expiresIn: TTL_MS });
    const issued = expiringCache<string>();
    sign = (caller) => {
      const key = `${caller.accountId} ${caller.email} ${caller.scopes?.join(" ") ?? "*"}`;
      const now = Date.now();
      const held = issued.get(key, now);
      if (held) return held;
      const token = signToken({ sub: caller.accountId, email: caller.email, scopes: caller.scopes });
      issued.set(key, token, now + REUSE_MS);
      return token;
    };
    signers.set(secret, sign);
  }
  return sign;
};

const verifierFor = (secret: string) => {
  let verify = verifiers.get(secret);
  if (!verify) {
    // Every claim required and the age bounded by iat too, so a token signed with a longer lifetime (a leaked
    // secret's forgery, or a misconfigured signer) is not accepted for longer than the gateway would issue.
    const verifyToken = createVerifier({ key: secret, algorithms: ["HS256"], allowedIss: ISSUER, allowedAud: AUDIENCE, requiredClaims: ["iss", "aud", "iat", "exp", "sub"], maxAge: TTL_MS });
    const verified = expiringCache<Caller>();
    verify = (token) => {
      const now = Date.now();
      const known = verified.get(token, now);
      if (known) return known;
      let payload: Record<string, unknown>;
      try {
        payload = verifyToken(token) as Record<string, unknown>;
      } catch {
        throw new AppError("unauthenticated", "invalid internal assertion");
      }
      const [iat, exp] = [Number(payload["iat"]) * 1000, Number(payload["exp"]) * 1000];
      // A lifetime longer than the gateway ever issues is a forgery or a misconfigured signer, valid or not.
      const caller = Caller.safeParse({ accountId: payload["sub"], email: payload["email"], scopes: payload["scopes"] ?? null });
      if (!(exp - iat <= TTL_MS) || !caller.success) throw new AppError("unauthenticated", "invalid internal assertion");
      verified.set(token, caller.data, Math.min(exp, iat + TTL_MS));
      return caller.data;
    };
    verifiers.set(secret, verify);
  }
  return verify;
};

export const signAssertion = async (secret: string, caller: Caller): Promise<string> => signerFor(secret)(caller);

export const verifyAssertion = async (secret: string, token: string | undefined): Promise<Caller> => {
  if (!token) throw new AppError("unauthenticated", "missing internal assertion");
  return verifierFor(secret)(token);
};
