import type { Credential } from "../identity/credential.ts";

/** How recently a session must have signed in for the acts that need the account's owner at the keyboard (docs/security.md). */
const RECENT_SIGN_IN_MS = 10 * 60_000;

export const RECENT_SIGN_IN_MINUTES = RECENT_SIGN_IN_MS / 60_000;

/** A session signed in within the last 10 minutes: proof that its owner is at the keyboard now. */
export const signedInRecently = (credential: Credential, now: number): boolean =>
  credential.kind === "session" && now - credential.createdAt <= RECENT_SIGN_IN_MS;
