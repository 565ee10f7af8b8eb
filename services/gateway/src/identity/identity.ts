// The gateway's identity: better-auth for sign-in, key management and agents' OAuth, plus the per-request
// credential check.
import { bearerToken, createApiKeyResolver, isApiKey } from "./api-key-credential.ts";
import { createAuth, mcpUrlOf, type Auth, type AuthOptions } from "./auth.ts";
import type { AuthenticatedCaller } from "./credential.ts";
import { issueAccountKey, issueKey, type IssuedKey, type IssueKeyOptions } from "./issue-account-key.ts";
import { silentLogger, type IdentityLogger } from "./logger.ts";
import { createOAuthTokenResolver, createOAuthTokenVerifier } from "./oauth-credential.ts";
import { resolveSession, sessionCookieIn } from "./session-credential.ts";
import type { IdentityStore } from "../store/identity-store.ts";

interface CredentialHeaders {
  authorization?: string | undefined;
  cookie?: string | undefined;
}

export interface Identity {
  auth: Auth;
  /** Serves better-auth's routes under /api/auth/*. */
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
  /** Creates the account if new, then a key for it. Server-side only. */
  issueAccountKey(email: string, options?: IssueKeyOptions): Promise<IssuedKey>;
  /** A key for an existing account (POST /api/keys); the caller has checked the scopes it may grant. */
  issueKey(accountId: string, options: IssueKeyOptions): ReturnType<typeof issueKey>;
  /** The identity providers ready for sign-in (a configured one whose discovery failed is missing). */
  readyProviders(): Promise<string[]>;
}

export type IdentityOptions = Omit<AuthOptions, "logger" | "store"> & {
  store: Pick<IdentityStore, "authDatabase" | "findApiKey" | "touchApiKey" | "retireOlderMagicLinks" | "isAccessTokenLive" | "revokeAccessToken">;
  logger?: IdentityLogger;
};

export function createIdentity(options: IdentityOptions): Identity {
  const auth = createAuth({ ...options, logger: options.logger ?? silentLogger });
  const resolveApiKey = createApiKeyResolver(options.store);
  const tokenCheck = {
    issuer: new URL(options.baseUrl).origin,
    audience: mcpUrlOf(options.baseUrl),
    jwks: () => auth.api.getJwks(),
  };
  const resolveOAuthToken = createOAuthTokenResolver({ ...tokenCheck, store: options.store });
  const verifyOAuthToken = createOAuthTokenVerifier(tokenCheck);
  return {
    auth,
    handler: (request) => auth.handler(request),
    async resolveCaller({ authorization, cookie }) {
      if (authorization !== undefined) {
        const token = bearerToken(authorization);
        return isApiKey(token) ? resolveApiKey(token) : resolveOAuthToken(token);
      }
      if (!cookie || !(await sessionCookieIn(auth, cookie))) return null;
      return resolveSession(auth, cookie);
    },
    async revokeAccessToken(token, clientId) {
      const claims = await verifyOAuthToken(token).catch(() => null);
      if (!claims || claims.azp !== clientId) return false;
      await options.store.revokeAccessToken(claims.jti, new Date(claims.exp * 1000));
      return true;
    },
    issueAccountKey: (email, issueOptions) => issueAccountKey(auth, email, issueOptions),
    issueKey: (accountId, issueOptions) => issueKey(auth, accountId, issueOptions),
    readyProviders: async () => (await auth.$context).socialProviders.map((provider) => provider.id),
  };
}
