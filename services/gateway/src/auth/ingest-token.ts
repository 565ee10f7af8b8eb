// The shared scale-ingest token (docs/decisions/0021-scale-ingest-token.md).
import { createHash, timingSafeEqual } from "node:crypto";

const digest = (value: string) => createHash("sha256").update(value, "utf8").digest();
const BEARER = /^Bearer +(\S+) *$/i;

export type IngestTokenMatcher = (authorization: string | undefined) => boolean;

/**
 * Whether an Authorization header carries the ingest token. Both sides are compared as SHA-256 digests with
 * timingSafeEqual: equal lengths whatever was sent, and no early exit that would time how much of it matched.
 * Null without a configured token.
 */
export const ingestTokenMatcher = (token: string | undefined): IngestTokenMatcher | null => {
  if (token === undefined) return null;
  const expected = digest(token);
  return (authorization) => {
    const sent = authorization === undefined ? undefined : BEARER.exec(authorization)?.[1];
    return sent !== undefined && timingSafeEqual(digest(sent), expected);
  };
};
