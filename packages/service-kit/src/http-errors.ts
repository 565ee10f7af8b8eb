import { STATUS_CODES, type IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import type { FastifyError, FastifyInstance, FastifyReply } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import type { z } from "zod";
import { AppError, type ErrorCode } from "@fit/contracts";

/** Fastify's own failures, mapped to our codes so they answer in the envelope like everything else. */
const fastifyCodes: Record<string, [ErrorCode, string]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: ["payload_too_large", "request body is too large"],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ["unsupported_media_type", "content type must be application/json"],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ["validation", "content length does not match the body"],
  FST_ERR_CTP_EMPTY_JSON_BODY: ["validation", "body must not be empty"],
  FST_ERR_CTP_INVALID_JSON_BODY: ["validation", "body is not valid JSON"],
  // The caller hung up while a forwarded request was under way: nobody is left to answer, and it is no fault.
  UND_ERR_ABORTED: ["unavailable", "request aborted"],
};

/** Errors raised by plugins (proxy, rate limit) carry only a status; keep its meaning, not its text. */
const statusCodes: Record<number, [ErrorCode, string]> = {
  404: ["not_found", "not found"],
  413: ["payload_too_large", "request body is too large"],
  415: ["unsupported_media_type", "content type must be application/json"],
  429: ["rate_limited", "too many requests"],
  502: ["unavailable", "a service is unavailable"],
  503: ["unavailable", "a service is unavailable"],
  504: ["timeout", "a service did not answer in time"],
};

/**
 * A lost or refused database connection (PostgreSQL stopping, restarting or recovering, the pool exhausted,
 * the network gone) is a 503: the request may succeed later and nothing was written. Prisma wraps the driver's
 * error (`meta.driverAdapterError`) or chains it (`cause`); the SQLSTATE classes 08 (connection) and 57P0x
 * (shutdown, starting up), Prisma's P1xxx and pool timeout, and Node's socket errors mark it.
 */
const UNAVAILABLE_CODE = /^(P1001|P1002|P1008|P1017|P2024|08\w{3}|57P0[123]|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND)$/;
const UNAVAILABLE_KIND = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);
const UNAVAILABLE_TEXT =
  /Code: `(08\w{3}|57P0[123])`|Connection terminated|connection error|Can't reach database server|server closed the connection/i;

const isDatabaseUnavailable = (error: unknown): boolean => {
  const pending = [error];
  for (let seen = 0; pending.length > 0 && seen < 16; seen++) {
    const next = pending.pop();
    if (!next || typeof next !== "object") continue;
    const { code, originalCode, kind, message, cause, meta } = next as Record<string, unknown>;
    if ([code, originalCode].some((c) => typeof c === "string" && UNAVAILABLE_CODE.test(c))) return true;
    if (typeof kind === "string" && UNAVAILABLE_KIND.has(kind)) return true;
    if (typeof message === "string" && UNAVAILABLE_TEXT.test(message)) return true;
    pending.push(cause, (meta as { driverAdapterError?: unknown } | undefined)?.driverAdapterError);
  }
  return false;
};

/** Zod messages of the contracts start with the field, "must" or "is"; a bare one gets the path in front. */
const describeIssue = (path: readonly PropertyKey[], message: string): string => {
  const field = path.map(String).join(".");
  if (!field || message.startsWith(field)) return message;
  return /^(must|is) /.test(message) ? `${field} ${message}` : `${field}: ${message}`;
};

/** Validates what no route schema could (an upload route's JSON form), with the same 400 a schema gives. */
export const parseOrRefuse = <S extends z.ZodType>(schema: S, value: unknown): z.output<S> => {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const [first] = parsed.error.issues;
  throw new AppError("validation", describeIssue(first?.path ?? [], first?.message ?? "invalid input"));
};

export const toAppError = (error: unknown): AppError => {
  if (error instanceof AppError) return error;
  if (hasZodFastifySchemaValidationErrors(error)) {
    const [first] = error.validation;
    const path = (first?.instancePath ?? "").split("/").filter(Boolean);
    return new AppError("validation", describeIssue(path, first?.message ?? "invalid input"));
  }
  if (isDatabaseUnavailable(error)) return new AppError("unavailable", "the database is unavailable, retry shortly");
  const fastifyError = error as Partial<FastifyError>;
  const known = fastifyError.code ? fastifyCodes[fastifyError.code] : undefined;
  if (known) return new AppError(known[0], known[1]);
  if (error instanceof SyntaxError || fastifyError.statusCode === 400) {
    const poisoned = /prototype|constructor/i.test(fastifyError.message ?? "");
    return new AppError("validation", poisoned ? "body contains a forbidden __proto__ or constructor key" : "body is not valid JSON");
  }
  const byStatus = statusCodes[fastifyError.statusCode ?? 500];
  return byStatus ? new AppError(...byStatus) : new AppError("internal", "internal error");
};

/**
 * A client that closed its connection mid-request is no fault of the server: a load run ends with hundreds of them,
 * and a warning with a stack each would bury the ones that matter.
 */
const callerHungUp = (error: unknown, raw: IncomingMessage) => (error as { code?: string }).code === "UND_ERR_ABORTED" || raw.destroyed;

/** Every failure leaves in the envelope; nothing unexpected leaks its text or stack. */
export const installErrorHandling = (app: FastifyInstance): void => {
  app.setErrorHandler((error, request, reply) => {
    const appError = toAppError(error);
    if (appError.code === "internal") request.log.error({ err: error }, "unexpected error");
    else if (callerHungUp(error, request.raw)) request.log.debug("the caller hung up before the answer");
    else if (appError.status >= 500) request.log.warn({ err: error }, appError.message);
    if (appError.code === "unauthenticated") void reply.header("www-authenticate", 'Bearer realm="fit"');
    if (appError.retryAfterS !== undefined) void reply.header("retry-after", String(Math.ceil(appError.retryAfterS)));
    return reply
      .status(appError.status)
      .send(appError.detail ? { error: appError.message, detail: appError.detail } : { error: appError.message });
  });
  app.setNotFoundHandler((_request, reply) => reply.status(404).send({ error: "not found" }));
};

/** Errors Fastify's router raises before any route runs (so before the error handler can see them). */
export const replyToFrameworkError = (error: FastifyError, _request: unknown, reply: FastifyReply): void => {
  const tooLong = error.code === "FST_ERR_MAX_PARAM_LENGTH";
  void reply.status(tooLong ? 414 : 400).send({ error: tooLong ? "path is too long" : "malformed URL" });
};

const clientErrors: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, "request headers are too large"],
  ERR_HTTP_REQUEST_TIMEOUT: [408, "request took too long to arrive"],
  ERR_HTTP_HEADERS_TIMEOUT: [408, "request took too long to arrive"],
};

/**
 * Answers what Node refuses before Fastify sees a request (headers too large, a malformed request line such
 * as a lowercase method, a request that never finished arriving) in the envelope, then closes the connection:
 * after a parse error nothing more can be read from it.
 */
export const replyToClientError = (error: Error & { code?: string }, socket: Socket): void => {
  if (!socket.writable) return void socket.destroy();
  const [status, message] = clientErrors[error.code ?? ""] ?? [400, "malformed request"];
  const body = JSON.stringify({ error: message });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      `content-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
};
