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

// fast-jwt signs and verifies HS256 synchronously with node:crypto, about ten times cheaper than WebCrypto's
// async path, and this runs twice on every request. One signer and verifier per secret.
const signers = new Map<string, (payload: object) => string>();
const verifiers = new Map<string, (token: string) => Record<string, unknown>>();

const signerFor = (secret: string) => {
  let sign = signers.get(secret);
  if (!sign) {
    sign = createSigner({ key: secret, algorithm: "HS256", iss: ISSUER, aud: AUDIENCE, expiresIn: TTL_MS });
    signers.set(secret, sign);
  }
  return sign;
};

const verifierFor = (secret: string) => {
  let verify = verifiers.get(secret);
  if (!verify) {
    // Every claim required and the age bounded by iat too, so a token signed with a longer lifetime (a leaked
    // secret's forgery, or a misconfigured signer) is not accepted for longer than the gateway would issue.
    verify = createVerifier({ key: secret, algorithms: ["HS256"], allowedIss: ISSUER, allowedAud: AUDIENCE, requiredClaims: ["iss", "aud", "iat", "exp", "sub"], maxAge: TTL_MS });
    verifiers.set(secret, verify);
  }
  return verify;
};

export const signAssertion = async (secret: string, caller: Caller): Promise<string> =>
  signerFor(secret)({ sub: caller.accountId, email: caller.email, scopes: caller.scopes });

export const verifyAssertion = async (secret: string, token: string | undefined): Promise<Caller> => {
  if (!token) throw new AppError("unauthenticated", "missing internal assertion");
  let payload: Record<string, unknown>;
  try {
    payload = verifierFor(secret)(token);
  } catch {
    throw new AppError("unauthenticated", "invalid internal assertion");
  }
  // A lifetime longer than the gateway ever issues is a forgery or a misconfigured signer, valid or not.
  const lifetimeMs = (Number(payload["exp"]) - Number(payload["iat"])) * 1000;
  const caller = Caller.safeParse({ accountId: payload["sub"], email: payload["email"], scopes: payload["scopes"] ?? null });
  if (!(lifetimeMs <= TTL_MS) || !caller.success) throw new AppError("unauthenticated", "invalid internal assertion");
  return caller.data;
};
