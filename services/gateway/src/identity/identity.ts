// The gateway's identity: better-auth for sign-in and key management, plus the per-request credential check.
import { bearerKey, createApiKeyResolver } from "./api-key-credential.ts";
import { createAuth, type Auth, type AuthOptions } from "./auth.ts";
import type { AuthenticatedCaller } from "./credential.ts";
import { issueAccountKey, type IssuedKey, type IssueKeyOptions } from "./issue-account-key.ts";
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
  /** The identity providers ready for sign-in (a configured one whose discovery failed is missing). */
  readyProviders(): Promise<string[]>;
}

export type IdentityOptions = Omit<AuthOptions, "logger" | "store"> & {
  store: Pick<IdentityStore, "authDatabase" | "findApiKey" | "retireOlderMagicLinks">;
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
    readyProviders: async () => (await auth.$context).socialProviders.map((provider) => provider.id),
  };
}
