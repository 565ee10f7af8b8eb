import { createHash } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { AppError, IDEMPOTENCY_KEY_HEADER, parseIdempotencyKey, type Operation } from "@fit/contracts";
import { recordAnswer, type IdempotencyClaim, type IdempotencyKeys } from "@fit/db";
import { JsonText } from "./json-text.ts";
import { stringifyWith } from "./response-serializer.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** The service's idempotency keys, set by buildService: what a keyed creating route looks up. */
    idempotencyKeys?: IdempotencyKeys;
  }
}

/**
 * What a creating handler hands its store to run with the write: the statements that record the request's
 * Idempotency-Key with `answer` (none without a key). Call it once, with the answer the handler returns.
 */
export type RecordAnswer = <A>(answer: A) => ReturnType<typeof recordAnswer>[];

export const noKey: RecordAnswer = () => [];

/** The key of `request`, undefined without the header; a 400 for a malformed or repeated one. */
const keyOf = (request: FastifyRequest): string | undefined => {
  const value = request.headers[IDEMPOTENCY_KEY_HEADER];
  if (value === undefined) return undefined;
  if (Array.isArray(value)) throw new AppError("validation", "Idempotency-Key must be sent once");
  const parsed = parseIdempotencyKey(value);
  if ("error" in parsed) throw new AppError("validation", parsed.error);
  return parsed.key;
};

/** What makes two requests the same: method, route, the validated query and body (or an upload's bytes). */
const hashOf = (op: Operation, request: FastifyRequest, body: unknown) =>
  createHash("sha256")
    .update(`${op.method} ${op.path}\n${JSON.stringify(request.query ?? null)}\n`)
    .update(Buffer.isBuffer(body) ? body : JSON.stringify(body ?? null))
    .digest("hex");

// Keys being served by this process: a second request with one is a 409 at once instead of waiting for the
// first's write (on another replica it waits at the key's unique index, then gets the first's answer).
const inFlight = new Set<string>();

/**
 * Runs a creating handler under the request's Idempotency-Key (docs/decisions/0062-idempotency-keys.md). The
 * handler's write carries `record(answer)`, so the key and its answer commit with the write or not at all. When
 * the write fails because the key is already recorded (or the handler fails for any reason, the coach being
 * away on a retry, say), the recorded answer is sent again: 422 if it was another request's, and an expired
 * key is forgotten and the request served afresh. Without the header the handler runs as it always did.
 */
export const serveKeyed = async <A>(
  op: Operation,
  request: FastifyRequest,
  reply: FastifyReply,
  body: unknown,
  handler: (record: RecordAnswer) => Promise<A>,
): Promise<A | JsonText> => {
  const key = keyOf(request);
  if (key === undefined) return handler(noKey);
  const keys = request.server.idempotencyKeys;
  if (!keys) throw new Error(`${op.id} takes an Idempotency-Key but its service has no idempotency_key table`);
  const claim: IdempotencyClaim = { accountId: request.caller.accountId, key, requestHash: hashOf(op, request, body) };
  const flight = `${op.service} ${claim.accountId} ${key}`;
  if (inFlight.has(flight)) throw new AppError("conflict", "a request with this Idempotency-Key is still in progress", "retry once it has answered");
  inFlight.add(flight);
  const status = op.status ?? 200;
  try {
    for (let forgotten = false; ; forgotten = true) {
      let sent: string | undefined;
      const record: RecordAnswer = (answer) => {
        sent = stringifyWith(op.response)(answer);
        return [recordAnswer(claim, status, sent)];
      };
      try {
        await handler(record);
        if (sent === undefined) throw new Error(`${op.id} wrote without recording its Idempotency-Key`);
        return new JsonText(sent);
      } catch (error) {
        const stored = await keys.find(claim).catch(() => null);
        if (!stored) throw error;
        if (stored.expired && !forgotten) {
          await keys.forgetExpired(claim);
          continue;
        }
        if (stored.requestHash !== claim.requestHash) {
          throw new AppError("unprocessable", "this Idempotency-Key was used with another request", "use a new key for a new request");
        }
        void reply.code(stored.status);
        return new JsonText(stored.answer);
      }
    }
  } finally {
    inFlight.delete(flight);
  }
};
