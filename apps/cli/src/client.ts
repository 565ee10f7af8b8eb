import { randomUUID } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import { ErrorEnvelope, IDEMPOTENCY_KEY_HEADER, idempotencyKeyValue, type Operation } from "@fit/contracts";
import type { z } from "zod";
import type { Connection } from "./config.ts";
import { CliError, exitCodeOfStatus, exitCodes, refused } from "./exit.ts";

type Schema<O, K extends "body" | "query"> = O extends Record<K, infer S extends z.ZodType> ? z.input<S> : undefined;

export interface CallInput<O extends Operation> {
  params?: Record<string, string>;
  query?: Schema<O, "query">;
  body?: Schema<O, "body">;
  /** A file sent as the raw body, for an operation that takes one (a photo). */
  file?: { bytes: Uint8Array; contentType: string };
}

const validated = (schema: z.ZodType | undefined, value: unknown): unknown => {
  if (!schema || value === undefined) return value;
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw refused(parsed.error);
  return parsed.data;
};

const errorMessage = async (response: Response): Promise<string> => {
  const text = await response.text();
  try {
    const envelope = ErrorEnvelope.safeParse(JSON.parse(text));
    if (envelope.success) return envelope.data.detail ? `${envelope.data.error} (${envelope.data.detail})` : envelope.data.error;
  } catch {
    // Not JSON: a proxy's page, say; the status line is the best message left.
  }
  return `${response.status} ${response.statusText}`;
};

/** Waits before each retry: a service restarting is usually back within seconds. */
const RETRY_DELAYS_MS = [250, 1_000, 2_500];
const RETRIED_STATUSES = new Set([502, 503, 504]);
const RETRY_AFTER_CAP_S = 5;

/**
 * One request with the caller's key; any answer but 2xx becomes a CliError with the API's message. A request
 * that is safe to send again (a GET, PUT or DELETE, or a write under an Idempotency-Key, resent with the same
 * key: docs/decisions/0062-idempotency-keys.md) is retried when the server cannot be reached or answers 502,
 * 503 or 504.
 */
export const send = async (
  connection: Connection,
  method: string,
  path: string,
  body?: { bytes: Uint8Array | string | ReadableStream<Uint8Array>; contentType: string },
  idempotencyKey?: string,
): Promise<Response> => {
  if (!connection.key) {
    throw new CliError("not logged in: run `fit login`, or pass --key or set FIT_API_KEY", exitCodes.auth);
  }
  const headers: Record<string, string> = { authorization: `Bearer ${connection.key}`, accept: "application/json" };
  if (body) headers["content-type"] = body.contentType;
  if (idempotencyKey) headers[IDEMPOTENCY_KEY_HEADER] = idempotencyKeyValue(idempotencyKey);
  const retried = idempotencyKey !== undefined || ["GET", "PUT", "DELETE"].includes(method);
  for (let attempt = 0; ; attempt++) {
    const last = !retried || attempt >= RETRY_DELAYS_MS.length;
    let response: Response;
    try {
      // A stream is sent as it is read (`duplex: "half"` is how fetch is told); it is never retried, having been read.
      const init: RequestInit & { duplex?: "half" } = { method, headers, ...(body ? { body: body.bytes, duplex: "half" } : {}) };
      response = await fetch(`${connection.url}${path}`, init);
    } catch (error) {
      if (!last) {
        await delay(RETRY_DELAYS_MS[attempt]);
        continue;
      }
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new CliError(`cannot reach ${connection.url}: ${cause?.code ?? cause?.message ?? String(error)}`, exitCodes.unavailable);
    }
    if (!last && RETRIED_STATUSES.has(response.status)) {
      await response.body?.cancel();
      const after = Number(response.headers.get("retry-after"));
      await delay(after > 0 ? Math.min(after, RETRY_AFTER_CAP_S) * 1000 : RETRY_DELAYS_MS[attempt]!);
      continue;
    }
    if (!response.ok) throw new CliError(await errorMessage(response), exitCodeOfStatus(response.status), response.status);
    return response;
  }
};

const withQuery = (path: string, query: unknown): string => {
  if (!query) return path;
  const entries = Object.entries(query as Record<string, unknown>).filter(([, value]) => value !== undefined);
  return entries.length === 0 ? path : `${path}?${new URLSearchParams(entries.map(([k, v]): [string, string] => [k, String(v)])).toString()}`;
};

/**
 * Calls one operation of the public API as the contracts describe it: the body and query are checked against
 * the operation's schemas before sending, and the answer is read through its response schema.
 */
export const call = async <O extends Operation>(
  connection: Connection,
  operation: O,
  input: CallInput<O> = {},
): Promise<z.output<O["response"]>> => {
  const body = validated(operation.body, input.body);
  const query = validated(operation.query, input.query);
  const params = validated(operation.params, input.params) as Record<string, string> | undefined;
  const path = operation.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params?.[name] ?? ""));
  const response = await send(
    connection,
    operation.method,
    withQuery(path, query),
    input.file ?? (body === undefined ? undefined : { bytes: JSON.stringify(body), contentType: "application/json" }),
    // One call is one intended write: a fresh key, which send() resends on its retries.
    operation.idempotencyKey ? randomUUID() : undefined,
  );
  return operation.response.parse(await response.json()) as z.output<O["response"]>;
};
