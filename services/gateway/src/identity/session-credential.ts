// Resolves the session cookie through better-auth, which checks the cookie's signature and reads the session row.
import { parseCookies } from "better-auth/cookies";
import { AppError } from "@fit/contracts";
import type { Auth } from "./auth.ts";
import type { AuthenticatedCaller } from "./credential.ts";

/** The session cookie's name (`__Secure-` prefixed on https), or null when the header carries none. */
export async function sessionCookieIn(auth: Auth, cookie: string): Promise<string | null> {
  const name = (await auth.$context).authCookies.sessionToken.name;
  return parseCookies(cookie).has(name) ? name : null;
}

export async function resolveSession(auth: Auth, cookie: string): Promise<AuthenticatedCaller> {
  // disableRefresh: this read runs on every API request; extending the session (a write, and a new cookie the
  // API route would drop) is left to GET /api/auth/get-session, which the web app calls.
  const found = await auth.api.getSession({ headers: new Headers({ cookie }), query: { disableRefresh: true } });
  if (!found) throw new AppError("unauthenticated", "session cookie is invalid, expired or signed out");
  // API keys never become sessions (enableSessionForAPIKeys is off), so scopes are always the account's full access.
  return {
    accountId: found.user.id,
    email: found.user.email,
    scopes: null,
    credential: { kind: "session", id: found.session.id, createdAt: found.session.createdAt.getTime() },
  };
}
