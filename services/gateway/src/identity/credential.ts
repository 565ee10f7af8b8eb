import type { Caller } from "@fit/service-kit";

/**
 * The credential a request came with. The gateway decides by it where scopes alone cannot (key management,
 * session management, account deletion); it is never forwarded: services see only the Caller.
 */
export type Credential =
  | { kind: "session"; id: string; createdAt: number }
  /** `expiresAt`: when the key stops working (ms since the epoch), or null; a key it makes never outlives it. */
  | { kind: "api_key"; id: string; expiresAt: number | null }
  /** An OAuth access token issued to an agent: `id` is the token's jti, `clientId` the agent it was issued to. */
  | { kind: "oauth"; id: string; clientId: string };

export interface AuthenticatedCaller extends Caller {
  credential: Credential;
}
