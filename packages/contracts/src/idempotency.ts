import { z } from "zod";

/**
 * The `Idempotency-Key` request header (the IETF httpapi draft "The Idempotency-Key HTTP Header Field"): a
 * client names one intended write with a fresh key and sends the same key on every retry of it
 * (docs/decisions/0062-idempotency-keys.md).
 */
export const IDEMPOTENCY_KEY_HEADER = "idempotency-key";

/** How long a service remembers a key, per account (the same figure as `IDEMPOTENCY_KEY_TTL_MS` in @fit/db). */
export const IDEMPOTENCY_KEY_HOURS = 24;

const MAX_KEY_LENGTH = 255;
// The draft's form: a Structured Field string (`"…"`, printable ASCII, `\"` and `\\` escaped). A bare token of
// visible ASCII but a quote, backslash, comma or semicolon is taken too, as most clients send one.
const QUOTED = /^"((?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*)"$/;
const BARE = /^[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]+$/;

/** The header's value for `key` (an sf-string). */
export const idempotencyKeyValue = (key: string): string => `"${key.replace(/[\\"]/g, (c) => `\\${c}`)}"`;

/** The key a header value names, or a message saying what is wrong with it. */
export const parseIdempotencyKey = (value: string): { key: string } | { error: string } => {
  const quoted = QUOTED.exec(value);
  const key = quoted ? quoted[1]!.replace(/\\(["\\])/g, "$1") : BARE.test(value) ? value : undefined;
  if (key === undefined) return { error: "Idempotency-Key must be a quoted string or a token of printable ASCII" };
  if (key.length === 0 || key.length > MAX_KEY_LENGTH) return { error: `Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} characters` };
  return { key };
};

/** The header as /openapi.json documents it on every operation that takes it. */
export const IdempotencyKeyHeaders = z.object({
  "Idempotency-Key": z.string().min(1).max(MAX_KEY_LENGTH + 2).optional().meta({
    description:
      "Optional. A key you choose for this one intended write (a UUID, say; a quoted string or a bare token), sent " +
      "again unchanged on every retry of it. The same key with the same request answers the first answer again " +
      "(same status and body) and writes nothing more, even when that answer was lost; with another request " +
      `(method, path, query or body) 422; while the first is still in progress 409. Keys are per account and ` +
      `remembered for ${IDEMPOTENCY_KEY_HOURS} h, then forgotten. Without the header a retry writes again.`,
    example: "\"8e03978e-40d5-43e8-bc93-6894a57f9324\"",
  }),
});
