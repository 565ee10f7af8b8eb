// Resolves the session cookie through better-auth, which checks the cookie's signature and reads the session row;
// a resolved session is then held in the credential cache, keyed by the cookie's digest.
import { parseCookies } from "better-auth/cookies";
import { AppError } from "@fit/contracts";
import type { Auth } from "./auth.ts";
import type { AuthenticatedCaller } from "./credential.ts";
import { credentialDigest, type CredentialCache, type ResolvedCredential } from "./credential-cache.ts";

const signedOut = () => new AppError("unauthenticated", "session cookie is invalid, expired or signed out");

async function readSession(auth: Auth, cookie: string): Promise<ResolvedCredential> {
  // disableRefresh: this read runs on every API request; extending the session (a write, and a new cookie the
  // API route would drop) is left to GET /api/auth/get-session, which the web app calls.
  const found = await auth.api.getSession({ headers: new Headers({ cookie }), query: { disableRefresh: true } });
  if (!found) throw signedOut();
  // API keys never become sessions (enableSessionForAPIKeys is off), so scopes are always the account's full access.
  return {
    caller: {
      accountId: found.user.id,
      email: found.user.email,
      scopes: null,
      credential: { kind: "session", id: found.session.id, createdAt: found.session.createdAt.getTime() },
    },
    expiresAt: found.session.expiresAt.getTime(),
  };
}

/** The caller behind a Cookie header: null when it carries no session cookie (`__Secure-` prefixed on https). */
export function createSessionResolver(auth: Auth, cache: CredentialCache) {
  return async (cookie: string): Promise<AuthenticatedCaller | null> => {
    const name = (await auth.$context).authCookies.sessionToken.name;
    const token = parseCookies(cookie).get(name);
    if (token === undefined) return null;
    return cache.resolve(credentialDigest(token), () => readSession(auth, cookie), signedOut);
  };
}
