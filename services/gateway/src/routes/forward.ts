import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { IncomingHttpHeaders } from "node:http";
import { Readable, Transform } from "node:stream";
import { Pool, type Dispatcher } from "undici";
import { AppError, operationList, type Operation } from "@fit/contracts";
import { ASSERTION_HEADER, BODY_LIMIT } from "@fit/service-kit";

export type Upstreams = Record<Exclude<Operation["service"], "gateway">, string>;

/**
 * Headers about one connection, not about the message (RFC 9110 §7.6.1), and the expectation the gateway itself
 * answers (Node sends the `100 Continue`): neither the caller's reach the service nor the service's the caller,
 * since Node frames each connection's messages itself, and undici refuses to send several of them, which turned an
 * upload with `Expect: 100-continue` into a 503.
 */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade", "expect"]);

/**
 * Replaced on the way: the caller's credentials by the assertion, Host by the service's, and the trace context
 * by the gateway's own span's, which the undici instrumentation adds (the caller's copy left in would make two
 * traceparent headers, which a receiver rejects as one invalid value).
 */
const SWAPPED = new Set(["authorization", "cookie", "host", "traceparent", "tracestate"]);

/**
 * The headers the service gets: the caller's, less the hop-by-hop ones and any the Connection header names, less
 * the caller's own credentials (no token passthrough) and Host (undici writes the service's), plus the assertion.
 */
const forwardHeaders = (request: FastifyRequest): Record<string, string | string[]> => {
  const named = request.headers.connection?.split(",").map((name) => name.trim().toLowerCase()) ?? [];
  const headers: Record<string, string | string[]> = {};
  for (const name in request.headers) {
    const value = request.headers[name];
    if (value === undefined || HOP_BY_HOP.has(name) || SWAPPED.has(name) || name.startsWith("proxy-") || named.includes(name)) continue;
    headers[name] = value;
  }
  headers[ASSERTION_HEADER] = request.assertion;
  headers["x-request-id"] = request.id;
  return headers;
};

const tooLarge = () => new AppError("payload_too_large", "request body is too large");

/**
 * An upload's body as a stream cut at `limit` bytes: passed on to the service as it arrives rather than held
 * whole at the gateway. A body declared too long is refused before a byte of it is read.
 */
const streamWithin = (limit: number) => async (request: FastifyRequest, payload: Readable) => {
  if (Number(request.headers["content-length"] ?? 0) > limit) throw tooLarge();
  let received = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, next) {
      received += chunk.length;
      next(received > limit ? tooLarge() : null, chunk);
    },
  });
  // The caller hanging up mid-body must end the forwarded request too, or the service would wait for the rest.
  payload.once("close", () => {
    if (!(payload as { complete?: boolean }).complete) counted.destroy(new AppError("unavailable", "request aborted"));
  });
  // pipe, not pipeline: a refused body must not destroy the caller's request, whose connection still carries the 413.
  return payload.pipe(counted);
};

/** The refusal a streamed body met on its way (too large), or a 503: the service could not be reached. */
const forwardFailure = (error: unknown): AppError => {
  const refusal = error instanceof AppError ? error : (error as { cause?: unknown }).cause;
  return refusal instanceof AppError && refusal.code === "payload_too_large" ? refusal : new AppError("unavailable", "a service is unavailable");
};

/** A service's answer up to this size (every JSON reply; BODY_LIMIT is the same bound on requests) is sent whole. */
const WHOLE_ANSWER_BYTES = 64 * 1024;

/**
 * One forwarded request, as undici's dispatch handler: the service's answer is read whole and sent in one piece
 * when it declares a small length, anything larger or of unknown length is streamed as it arrives. undici's
 * `request` (what @fastify/reply-from used) builds an async resource, a body stream and their listeners for
 * every call, which cost the gateway more per request than the few hundred bytes of a JSON answer
 * (docs/performance.md, "Write path CPU"). An answer broken off before any of it was sent (the service reset the
 * connection, or is down) is a 503, like a service that could not be reached.
 */
class Forwarding implements Dispatcher.DispatchHandler {
  private status = 0;
  private headers: IncomingHttpHeaders = {};
  private chunks: Buffer[] | undefined;
  private stream: Readable | undefined;
  /** The service's answer is over, whole or broken off. */
  private ended = false;

  constructor(
    private readonly request: FastifyRequest,
    private readonly reply: FastifyReply,
    private readonly service: string,
  ) {}

  /** Declared so undici calls this handler by its current interface (onResponseStart and the rest). */
  onRequestStart() {}

  onResponseStart(controller: Dispatcher.DispatchController, status: number, headers: IncomingHttpHeaders) {
    // The caller hung up while the service worked: nothing to answer.
    if (this.reply.raw.destroyed) return controller.abort(new AppError("unavailable", "request aborted"));
    this.status = status;
    this.headers = headers;
    if (Number(headers["content-length"]) <= WHOLE_ANSWER_BYTES) {
      this.chunks = [];
      return;
    }
    this.stream = new Readable({
      read: () => controller.resume(),
      // The caller went away mid-answer: the rest of the service's answer is not read for no one.
      destroy: (error, done) => {
        if (!this.ended) controller.abort(error ?? new AppError("unavailable", "request aborted"));
        done(error);
      },
    });
    this.answer().send(this.stream);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer) {
    if (this.chunks) this.chunks.push(chunk);
    else if (this.stream && !this.stream.push(chunk)) controller.pause();
  }

  onResponseEnd() {
    this.ended = true;
    if (this.stream) return void this.stream.push(null);
    if (this.reply.raw.destroyed) return;
    const chunks = this.chunks ?? [];
    this.answer().send(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error) {
    this.ended = true;
    // Half of a streamed answer is out already: ending the stream in error cuts the caller's connection.
    if (this.stream) return void this.stream.destroy(error);
    if (this.reply.sent || this.reply.raw.destroyed) return;
    const failure = forwardFailure(error);
    if (failure.code === "unavailable") this.reply.log.warn({ err: error, service: this.service }, "service unavailable");
    this.reply.send(failure);
  }

  /** The reply with the service's status and headers on it. */
  private answer() {
    const { reply, headers } = this;
    reply.code(this.status);
    for (const name in headers) if (!HOP_BY_HOP.has(name)) reply.header(name, headers[name]);
    // A connection cannot carry another request while the caller is still sending this one's body (the service
    // answered before it read all of it, a 413 say).
    if (!this.request.raw.complete) reply.header("connection", "close");
    return reply;
  }
}

/**
 * One route per contract operation a service serves, registered from the contracts' table: Fastify's match is
 * the only routing, and the route carries its operation for the scope check. The body is passed on as the
 * bytes that came in (the owning service parses and validates it against the same schema), within the same
 * size limit; an upload's as a stream (docs/security.md#25-activity-file-imports). Runs inside the scope where
 * the authenticate hooks are installed, so nothing reaches a service without an assertion.
 */
export const forwardRoutes = async (app: FastifyInstance, { upstreams }: { upstreams: Upstreams }) => {
  // A keep-alive connection pool per service; nothing is retried, so a failure is seen for what it is. Idle
  // connections are kept a minute (undici's default is 4 s), below the services' 72 s, so a quiet spell does not
  // cost new connections. No pipelining: a slow answer would hold up the requests queued behind it on its socket.
  const pools = new Map<string, Pool>();
  const poolFor = (origin: string) => {
    let pool = pools.get(origin);
    if (!pool) {
      pool = new Pool(origin, { connections: 128, pipelining: 1, keepAliveTimeout: 60_000, keepAliveMaxTimeout: 60_000 });
      pools.set(origin, pool);
    }
    return pool;
  };
  app.addHook("onClose", async () => {
    await Promise.all([...pools.values()].map((pool) => pool.close()));
  });
  app.removeAllContentTypeParsers();
  // The parser's limit would override a route's: every route says its own (64 KiB, or an upload's).
  app.addContentTypeParser("*", { parseAs: "buffer" }, (_request, body, done) => done(null, body));

  const forward = (scope: FastifyInstance, op: Operation, upstream: string) => {
    const { origin, pathname } = new URL(upstream);
    const pool = poolFor(origin);
    const prefix = pathname.replace(/\/$/, "");
    scope.route({
      method: op.method,
      url: op.path,
      config: { operation: op },
      bodyLimit: op.upload?.limitBytes ?? BODY_LIMIT,
      handler: (request, reply) => {
        const { body } = request;
        const headers = forwardHeaders(request);
        // The bytes as they came: the owning service parses and validates them.
        if (Buffer.isBuffer(body)) headers["content-type"] = request.headers["content-type"] ?? "application/octet-stream";
        const forwarded = { method: request.method, path: `${prefix}${request.url}`, headers, body: (body as Buffer | Readable | undefined) ?? null };
        pool.dispatch(forwarded, new Forwarding(request, reply, op.service));
      },
    });
  };
  for (const op of operationList) {
    if (op.service === "gateway") continue;
    const upstream = upstreams[op.service];
    const { upload } = op;
    if (!upload) {
      forward(app, op, upstream);
      continue;
    }
    await app.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser("*", streamWithin(upload.limitBytes));
      forward(scope, op, upstream);
    });
  }
};
