import replyFrom from "@fastify/reply-from";
import type { FastifyInstance, FastifyReply, FastifyRequest, RawServerBase, RouteGenericInterface } from "fastify";
import type { IncomingHttpHeaders } from "node:http";
import { Transform, type Readable } from "node:stream";
import { AppError, operationList, type Operation } from "@fit/contracts";
import { ASSERTION_HEADER, BODY_LIMIT } from "@fit/service-kit";

export type Upstreams = Record<Exclude<Operation["service"], "gateway">, string>;

/**
 * Headers about the caller's connection to the gateway, not about the request (RFC 9110 §7.6.1), and the
 * expectation the gateway itself answers (Node sends the `100 Continue`): none is the service's business, and
 * undici refuses to send several of them, which turned an upload with `Expect: 100-continue` into a 503.
 */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade", "expect"]);

/**
 * The caller's own credentials stay at the edge (no token passthrough); the service gets the assertion.
 * `headers` is reply-from's own copy of the caller's headers, already without Connection and the headers it
 * names, so it is trimmed in place: rebuilding it was a share of the gateway's CPU on every request.
 */
const forwardHeaders = (request: Pick<FastifyRequest, "assertion" | "id">, headers: IncomingHttpHeaders): IncomingHttpHeaders => {
  for (const name of Object.keys(headers)) {
    if (HOP_BY_HOP.has(name) || name.startsWith("proxy-")) delete headers[name];
  }
  delete headers.authorization;
  delete headers.cookie;
  // The trace context the service continues is the gateway's own span's, which the undici instrumentation adds;
  // the caller's copy left in would make two traceparent headers, which a receiver rejects as one invalid value.
  delete headers.traceparent;
  delete headers.tracestate;
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
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof AppError && cause.code === "payload_too_large" ? cause : new AppError("unavailable", "a service is unavailable");
};

/** A service's answer up to this size (every JSON reply; BODY_LIMIT is the same bound on requests) is sent whole. */
const WHOLE_ANSWER_BYTES = 64 * 1024;

/**
 * The service's answer, as reply-from hands it over: read whole and sent in one piece when it declares a small
 * length, since piping a stream into the response (listeners on both sides, their end-of-stream watchers, a tick
 * per step) cost the gateway more per request than the few bytes it carries (docs/performance.md, "Write path
 * CPU"); anything larger or of unknown length is piped as it arrives. A body broken off half-way (the service
 * reset the connection) is a 503, like a service that could not be reached: nothing of it was sent yet.
 */
const sendAnswer = (_request: unknown, reply: FastifyReply<RouteGenericInterface, RawServerBase>, { stream }: { stream: Readable }) => {
  // reply-from has copied the service's headers onto the reply by now.
  const length = Number(reply.getHeader("content-length"));
  if (!(length <= WHOLE_ANSWER_BYTES)) return void reply.send(stream);
  const chunks: Buffer[] = [];
  stream.on("data", (chunk: Buffer) => chunks.push(chunk));
  stream.once("end", () => void reply.send(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
  stream.once("error", (error) => void reply.send(forwardFailure(error)));
};

/**
 * One route per contract operation a service serves, registered from the contracts' table: Fastify's match is
 * the only routing, and the route carries its operation for the scope check. The body is passed on as the
 * bytes that came in (the owning service parses and validates it against the same schema), within the same
 * size limit; an upload's as a stream (docs/security.md#25-activity-file-imports). Runs inside the scope where the authenticate hooks are installed, so nothing reaches a service
 * without an assertion.
 */
export const forwardRoutes = async (app: FastifyInstance, { upstreams }: { upstreams: Upstreams }) => {
  // A keep-alive connection pool per service; nothing is retried, so a failure is seen for what it is. Idle
  // connections are kept a minute (undici's default is 4 s), below the services' 72 s, so a quiet spell does not
  // cost new connections. No pipelining: a slow answer would hold up the requests queued behind it on its socket.
  await app.register(replyFrom, {
    undici: { connections: 128, pipelining: 1, keepAliveTimeout: 60_000, keepAliveMaxTimeout: 60_000 },
    destroyAgent: true,
    retryMethods: [],
    disableRequestLogging: true,
  });
  app.removeAllContentTypeParsers();
  // The parser's limit would override a route's: every route says its own (64 KiB, or an upload's).
  app.addContentTypeParser("*", { parseAs: "buffer" }, (_request, body, done) => done(null, body));

  const forward = (scope: FastifyInstance, op: Operation, upstream: string) =>
    scope.route({
      method: op.method,
      url: op.path,
      config: { operation: op },
      bodyLimit: op.upload?.limitBytes ?? BODY_LIMIT,
      handler: (request, reply) =>
        reply.from(`${upstream}${request.url}`, {
          // The bytes as they came (reply-from would re-encode a JSON body it was handed parsed).
          ...(Buffer.isBuffer(request.body)
            ? { body: request.body, contentType: request.headers["content-type"] ?? "application/octet-stream" }
            : {}),
          rewriteRequestHeaders: forwardHeaders,
          onResponse: sendAnswer,
          // A service that is down or resets the connection is a 503 for the caller, never a bare 500.
          onError: (errorReply, { error }) => {
            const failure = forwardFailure(error);
            if (failure.code === "unavailable") errorReply.log.warn({ err: error, service: op.service }, "service unavailable");
            void errorReply.send(failure);
          },
        }),
    });

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
