import { AppError, isErrorCode, type EndpointDef } from "@fit/contracts";
import { context } from "@opentelemetry/api";
import type { z } from "zod";
import { measureRequest } from "./metrics.ts";
import type { EndpointHandler, Logger, RequestOptions } from "./types.ts";
import { extractTrace, injectTrace, inSpan, SpanKind } from "./trace.ts";

/**
 * Request/reply rules shared by both buses, so parsing and error semantics cannot drift between them.
 * A message on the wire is a JSON text plus headers; errors travel in headers with an empty body.
 */
export interface WireMessage {
  data: string;
  headers: Record<string, string>;
}

export const errorHeader = {
  code: "fit-error-code",
  message: "fit-error-message",
  detail: "fit-error-detail",
  retryAfter: "fit-error-retry-after",
} as const;

/** Header names are case-insensitive in practice; lower-case them so both buses hand out the same keys. */
export const normalizeHeaders = (entries: Iterable<[string, string]>): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const [k, v] of entries) out[k.toLowerCase()] = v.trim();
  return out;
};

// NATS refuses CR/LF in header values; a message with a newline must not turn into a failed reply.
const headerSafe = (value: string): string => value.replace(/[\r\n]+/g, " ").slice(0, 1024);

export const issuesText = (error: z.ZodError): string =>
  error.issues
    .slice(0, 10)
    .map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`)
    .join("; ");

const parseJson = (text: string): unknown => (text === "" ? undefined : JSON.parse(text));

/** Client side: validate and serialize a request. A bad request never leaves the caller. */
const encodeRequest = (def: EndpointDef, req: unknown): string => {
  const parsed = def.request.safeParse(req);
  if (!parsed.success) throw new AppError("validation", `invalid request for ${def.subject}`, issuesText(parsed.error));
  return JSON.stringify(parsed.data) ?? "";
};

/**
 * Client side: re-throw the responder's error, or hand back its reply's JSON text as the responder wrote it,
 * after validating it against `def.reply` (`answer`).
 */
export const replyText = (def: EndpointDef, msg: WireMessage): string => {
  const code = msg.headers[errorHeader.code];
  if (code !== undefined) {
    const message = msg.headers[errorHeader.message] ?? code;
    const retryAfterS = Number(msg.headers[errorHeader.retryAfter]);
    throw new AppError(
      isErrorCode(code) ? code : "internal",
      message,
      msg.headers[errorHeader.detail],
      Number.isFinite(retryAfterS) && retryAfterS > 0 ? retryAfterS : undefined,
    );
  }
  return msg.data;
};

/** Client side: re-throw the responder's error, or parse its reply. */
export const decodeReply = (def: EndpointDef, msg: WireMessage): unknown => {
  const text = replyText(def, msg);
  let body: unknown;
  try {
    body = parseJson(text);
  } catch {
    throw new AppError("internal", `unreadable reply from ${def.subject}`);
  }
  const parsed = def.reply.safeParse(body);
  if (!parsed.success) throw new AppError("internal", `invalid reply from ${def.subject}`, issuesText(parsed.error));
  return parsed.data;
};

/** How a bus carries one question to `subject` and brings back the answer (or rejects with an AppError). */
export type SendQuestion = (subject: string, data: string, headers: Record<string, string>, timeoutMs: number) => Promise<WireMessage>;

/**
 * Client side, for both buses: the request checked and written, the send measured and traced (the caller's
 * trace in its headers), the answer read by `read`: `decodeReply` for `request`, `replyText` for `requestJson`.
 */
export const ask = <E extends EndpointDef, T>(
  def: E,
  req: z.input<E["request"]>,
  opts: RequestOptions,
  send: SendQuestion,
  read: (def: E, msg: WireMessage) => T,
): Promise<T> => {
  const data = encodeRequest(def, req);
  const timeoutMs = opts.timeoutMs ?? 2_000;
  return measureRequest(def.subject, () =>
    inSpan(`${def.subject} send`, SpanKind.CLIENT, context.active(), { "messaging.destination.name": def.subject }, async () => {
      const headers = { ...opts.headers };
      injectTrace(headers);
      return read(def, await send(def.subject, data, headers, timeoutMs));
    }),
  );
};

const errorReply = (err: AppError): WireMessage => {
  const headers: Record<string, string> = {
    [errorHeader.code]: err.code,
    [errorHeader.message]: headerSafe(err.message),
  };
  if (err.detail !== undefined) headers[errorHeader.detail] = headerSafe(err.detail);
  if (err.retryAfterS !== undefined) headers[errorHeader.retryAfter] = String(Math.ceil(err.retryAfterS));
  return { data: "", headers };
};

/**
 * Server side: the wrapper around every handler. Parses the request, runs the handler in the caller's trace,
 * parses the reply, and turns any failure into error headers. Unexpected errors are logged here and
 * answered as a bare "internal error", so no stack or internal text crosses the hop.
 */
export const answer = async <E extends EndpointDef>(
  def: E,
  handler: EndpointHandler<E>,
  msg: WireMessage,
  logger: Logger,
): Promise<WireMessage> =>
  // The queue group is the serving service's name: a trace shows which service answered.
  inSpan(`${def.subject} process`, SpanKind.SERVER, extractTrace(msg.headers), { "messaging.destination.name": def.subject, "messaging.consumer.group.name": def.service }, async () => {
    try {
      let body: unknown;
      try {
        body = parseJson(msg.data);
      } catch {
        throw new AppError("validation", `unreadable request for ${def.subject}`);
      }
      const req = def.request.safeParse(body);
      if (!req.success) throw new AppError("validation", `invalid request for ${def.subject}`, issuesText(req.error));
      const result = await handler(req.data as z.output<E["request"]>, { headers: msg.headers });
      const reply = def.reply.safeParse(result);
      if (!reply.success) {
        logger.error({ subject: def.subject, issues: issuesText(reply.error) }, "handler returned an invalid reply");
        return errorReply(new AppError("internal", "internal error"));
      }
      return { data: JSON.stringify(reply.data) ?? "", headers: {} };
    } catch (err) {
      if (err instanceof AppError) return errorReply(err);
      logger.error({ err, subject: def.subject }, "bus handler failed");
      return errorReply(new AppError("internal", "internal error"));
    }
  });
