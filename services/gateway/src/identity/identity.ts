// The gateway's identity: better-auth for sign-in and key management, plus the per-request credential check.
import { bearerKey, createApiKeyResolver } from "./api-key-credential.ts";
import { createAuth, type Auth, type AuthOptions } from "./auth.ts";
import type { AuthenticatedCaller } from "./credential.ts";
import { issueAccountKey, issueKey, type IssuedKey, type IssueKeyOptions } from "./issue-account-key.ts";
import { silentLogger, type IdentityLogger } from "./logger.ts";
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
   * one it sends is malformed, unknown, expired or revoked. A bearer token wins over a cookie.
   */
  resolveCaller(headers: CredentialHeaders): Promise<AuthenticatedCaller | null>;
  /** Creates the account if new, then a key for it. Server-side only. */
  issueAccountKey(email: string, options?: IssueKeyOptions): Promise<IssuedKey>;
  /** A key for an existing account (POST /api/keys); the caller has checked the scopes it may grant. */
  issueKey(accountId: string, options: IssueKeyOptions): ReturnType<typeof issueKey>;
}

export type IdentityOptions = Omit<AuthOptions, "logger" | "store"> & {
  store: Pick<IdentityStore, "authDatabase" | "findApiKey" | "touchApiKey" | "retireOlderMagicLinks">;
  logger?: IdentityLogger;
};

export function createIdentity(options: IdentityOptions): Identity {
  const auth = createAuth({ ...options, logger: options.logger ?? silentLogger });
  const resolveApiKey = createApiKeyResolver(options.store);
  return {
    auth,
    handler: (request) => auth.handler(request),
    async resolveCaller({ authorization, cookie }) {
      if (authorization !== undefined) return resolveApiKey(bearerKey(authorization));
      if (!cookie || !(await sessionCookieIn(auth, cookie))) return null;
      return resolveSession(auth, cookie);
    },
    issueAccountKey: (email, issueOptions) => issueAccountKey(auth, email, issueOptions),
    issueKey: (accountId, issueOptions) => issueKey(auth, accountId, issueOptions),
  };
}
