// The gateway's identity: better-auth for sign-in, key management and agents' OAuth, plus the per-request
// credential check.
import { bearerToken, createApiKeyResolver, isApiKey } from "./api-key-credential.ts";
import { ACCESS_TOKEN_TTL_SECONDS, createAuth, mcpUrlOf, type Auth, type AuthOptions } from "./auth.ts";
import type { AuthenticatedCaller } from "./credential.ts";
import { createCredentialCache, type CredentialCache } from "./credential-cache.ts";
import { issueAccountKey, issueKey, type IssuedKey, type IssueKeyOptions } from "./issue-account-key.ts";
import { silentLogger, type IdentityLogger } from "./logger.ts";
import { createOAuthTokenResolver, createOAuthTokenVerifier } from "./oauth-credential.ts";
import type { Revocations } from "./revocations.ts";
import { createSessionResolver } from "./session-credential.ts";
import type { IdentityStore } from "../store/identity-store.ts";

interface CredentialHeaders {
  authorization?: string | undefined;
  cookie?: string | undefined;
}

export interface Identity {
  auth: Auth;
  /** Serves better-auth's routes under /api/auth/*; a sign-out is carried to every replica's credential cache. */
  handler(request: Request): Promise<Response>;
  /**
   * The caller behind a request's credentials: null when it sends none; AppError("unauthenticated") when the
   * one it sends is malformed, unknown, expired or revoked. A bearer token (API key, or else OAuth access
   * token) wins over a cookie.
   */
  resolveCaller(headers: CredentialHeaders): Promise<AuthenticatedCaller | null>;
  /**
   * Revokes an access token of ours issued to `clientId` (RFC 7009): false when it is not one (a refresh token,
   * which the plugin revokes), already expired, or another client's.
   */
  revokeAccessToken(token: string, clientId: string | undefined): Promise<boolean>;
  /** Revokes an access token of ours by its id (`jti`), listed until it would have expired, on every replica. */
  revokeAccessTokenId(jti: string, expiresAt: Date): Promise<void>;
  /** Carries a stored revocation to every replica's credential cache (see Revocations). */
  revoked: Revocations["revoked"];
  /**
   * Ends the account's OAuth grant of one client (or of every client): consent, refresh tokens and every access
   * token issued until now, on every replica.
   */
  revokeConnectedApps(accountId: string, clientId?: string): Promise<void>;
  /** Creates the account if new, then a key for it. Server-side only. */
  issueAccountKey(email: string, options?: IssueKeyOptions): Promise<IssuedKey>;
  /** A key for an existing account (POST /api/keys); the caller has checked the scopes it may grant. */
  issueKey(accountId: string, options: IssueKeyOptions): ReturnType<typeof issueKey>;
  /** The identity providers ready for sign-in (a configured one whose discovery failed is missing). */
  readyProviders(): Promise<string[]>;
}

export type IdentityOptions = Omit<AuthOptions, "logger" | "store" | "onEmailProven"> & {
  store: Pick<
    IdentityStore,
    | "authDatabase" | "findApiKey" | "touchApiKey" | "retireOlderMagicLinks" | "isAccessTokenLive" | "revokeAccessToken"
    | "revokeGrants" | "endUnprovenAccess" | "markOperatorKey"
  >;
  logger?: IdentityLogger;
  /**
   * The credential cache and the revocations that reach it (docs/decisions/0027-credential-cache.md). Without
   * them (the create-key CLI, unit tests) every credential is read from the database.
   */
  credentials?: { cache: CredentialCache; revocations: Revocations };
};

/** A grant revocation now: its rows are kept as long as an access token issued before it may live. */
const revocationNow = () => ({ at: new Date(), forgetBefore: new Date(Date.now() - ACCESS_TOKEN_TTL_SECONDS * 1000) });

export function createIdentity(options: IdentityOptions): Identity {
  const { store } = options;
  const cache = options.credentials?.cache ?? createCredentialCache({ maxEntries: 0, ttlMs: 0 });
  const { revoked }: Revocations = options.credentials?.revocations ?? { revoked: async (what) => cache.invalidate(what) };
  // Sessions, keys made by a sign-in and agents' grants of the unproven account end on every replica before the
  // owner's own session is made (docs/decisions/0057-connected-apps.md).
  const onEmailProven = async (accountId: string) => {
    await store.endUnprovenAccess(accountId, revocationNow());
    await revoked({ accountId });
  };
  const auth = createAuth({ ...options, logger: options.logger ?? silentLogger, onEmailProven });
  const resolveApiKey = createApiKeyResolver(options.store, cache);
  const resolveSession = createSessionResolver(auth, cache);
  const signOutPath = `${auth.options.basePath}/sign-out`;
  const tokenCheck = {
    issuer: new URL(options.baseUrl).origin,
    audience: mcpUrlOf(options.baseUrl),
    jwks: () => auth.api.getJwks(),
  };
  const resolveOAuthToken = createOAuthTokenResolver({ ...tokenCheck, store: options.store }, cache);
  const verifyOAuthToken = createOAuthTokenVerifier(tokenCheck);
  const revokeAccessTokenId = async (jti: string, expiresAt: Date) => {
    await options.store.revokeAccessToken(jti, expiresAt);
    await revoked({ credentialId: jti });
  };
  return {
    auth,
    async handler(request) {
      if (new URL(request.url).pathname !== signOutPath) return auth.handler(request);
      // better-auth deletes the session row; which session that was is known only before.
      const cookie = request.headers.get("cookie");
      const session = cookie ? await resolveSession(cookie).catch(() => null) : null;
      const response = await auth.handler(request);
      if (session && response.ok) await revoked({ credentialId: session.credential.id });
      return response;
    },
    async resolveCaller({ authorization, cookie }) {
      if (authorization !== undefined) {
        const token = bearerToken(authorization);
        return isApiKey(token) ? resolveApiKey(token) : resolveOAuthToken(token);
      }
      if (!cookie) return null;
      return resolveSession(cookie);
    },
    revoked,
    async revokeConnectedApps(accountId, clientId) {
      await store.revokeGrants(accountId, { clientId, ...revocationNow() });
      // Access tokens are held in caches by their jti, not their client: the account's credentials are read again.
      await revoked({ accountId });
    },
    async revokeAccessToken(token, clientId) {
      const claims = await verifyOAuthToken(token).catch(() => null);
      if (!claims || claims.azp !== clientId) return false;
      await revokeAccessTokenId(claims.jti, new Date(claims.exp * 1000));
      return true;
    },
    revokeAccessTokenId,
    async issueAccountKey(email, issueOptions) {
      const issued = await issueAccountKey(auth, email, issueOptions);
      await store.markOperatorKey(issued.id);
      return issued;
    },
    issueKey: (accountId, issueOptions) => issueKey(auth, accountId, issueOptions),
    readyProviders: async () => (await auth.$context).socialProviders.map((provider) => provider.id),
  };
}
