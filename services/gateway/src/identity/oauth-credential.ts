// Resolves an OAuth access token (a JWT from the oauth-provider plugin) to its account, checked in the gateway:
// signature against the plugin's JWKS (kept in memory, re-read when a token names an unknown key), issuer,
// audience (this service's /mcp URL, RFC 8707), expiry and type; then the revocation list, since the plugin
// cannot revoke a JWT (docs/decisions/0022-oauth-for-agents.md).
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet, type JWTPayload } from "jose";
import { z } from "zod";
import { AppError } from "@fit/contracts";
import type { IdentityStore } from "../store/identity-store.ts";
import type { AuthenticatedCaller } from "./credential.ts";
import { credentialDigest, type CredentialCache } from "./credential-cache.ts";

/** The claims the gateway relies on; the plugin writes them all (email through customAccessTokenClaims). */
const AccessTokenClaims = z.object({
  sub: z.uuid(),
  email: z.string(),
  jti: z.string().min(1),
  exp: z.number(),
  iat: z.number(),
  /** When it was issued, to the millisecond (tokens from before this claim have only iat). */
  iat_ms: z.number().optional(),
  azp: z.string().min(1),
  scope: z.string().default(""),
});

export interface OAuthTokenCheck {
  issuer: string;
  audience: string;
  /** The plugin's public keys (auth.api.getJwks). */
  jwks: () => Promise<JSONWebKeySet>;
  store: Pick<IdentityStore, "isAccessTokenLive">;
}

const invalidToken = (why: string) => new AppError("unauthenticated", `access token ${why}`);
/**
 * Neither one of our keys nor a JWT: a mistyped key, or the opaque token an authorization server hands out when
 * asked without `resource`.
 */
const notForThisApi = (audience: string) =>
  new AppError("unauthenticated", `bearer token is neither an API key (fit_…) nor an access token for this API: an agent asks for one with resource=${audience} (RFC 8707)`);

/** A JWT's three base64url parts; anything else is not one of ours and is refused unread. */
const looksLikeJwt = (token: string) => /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token);

export function createOAuthTokenVerifier({ issuer, audience, jwks }: Omit<OAuthTokenCheck, "store">) {
  let keys: ReturnType<typeof createLocalJWKSet> | undefined;
  const verify = async (token: string, fresh: boolean) => {
    if (!keys || fresh) keys = createLocalJWKSet(await jwks());
    return jwtVerify(token, keys, { issuer, audience, typ: "at+jwt", requiredClaims: ["exp", "iat", "jti", "sub"] });
  };
  /** The verified claims, or why the token is refused. */
  return async (token: string): Promise<z.infer<typeof AccessTokenClaims> & JWTPayload> => {
    if (!looksLikeJwt(token)) throw notForThisApi(audience);
    let payload: JWTPayload;
    try {
      payload = (await verify(token, false)).payload;
    } catch (error) {
      // A key the cache does not know yet (the plugin rotated or created one): read the keys again, once.
      if ((error as { code?: string }).code !== "ERR_JWKS_NO_MATCHING_KEY") throw invalidToken(reason(error));
      try {
        payload = (await verify(token, true)).payload;
      } catch (retried) {
        throw invalidToken(reason(retried));
      }
    }
    const claims = AccessTokenClaims.safeParse(payload);
    if (!claims.success) throw invalidToken("lacks required claims");
    return { ...payload, ...claims.data };
  };
}

const reason = (error: unknown) => {
  const code = (error as { code?: string }).code;
  if (code === "ERR_JWT_EXPIRED") return "has expired";
  if (code === "ERR_JWT_CLAIM_VALIDATION_FAILED") return "is not for this service (audience, issuer or type)";
  return "is not valid";
};

/** Access tokens to callers, through the credential cache: a held token skips the signature check and the read. */
export function createOAuthTokenResolver(check: OAuthTokenCheck, cache: CredentialCache) {
  const verify = createOAuthTokenVerifier(check);
  const read = async (token: string) => {
    const claims = await verify(token);
    // A JWT outlives a deleted account and an ended grant unless both are checked too: the same single read.
    const live = await check.store.isAccessTokenLive({ jti: claims.jti, accountId: claims.sub, clientId: claims.azp, issuedAt: new Date(claims.iat_ms ?? claims.iat * 1000) });
    if (!live) throw invalidToken("was revoked, its app disconnected, or its account deleted");
    // offline_access only asks for a refresh token; it names no data.
    const scopes = claims.scope.split(" ").filter((scope) => scope && scope !== "offline_access");
    const caller: AuthenticatedCaller = { accountId: claims.sub, email: claims.email, scopes, credential: { kind: "oauth", id: claims.jti, clientId: claims.azp } };
    return { caller, expiresAt: claims.exp * 1000 };
  };
  return async (token: string): Promise<AuthenticatedCaller> => {
    if (!looksLikeJwt(token)) throw notForThisApi(check.audience);
    return cache.resolve(credentialDigest(token), () => read(token), () => invalidToken("has expired"));
  };
}
