import replyFrom from "@fastify/reply-from";
import type { FastifyInstance, FastifyRequest } from "fastify";
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

/** Every header the caller's Connection header names is hop-by-hop too. */
const connectionNamed = (headers: IncomingHttpHeaders): Set<string> =>
  new Set((headers.connection ?? "").split(",").map((name) => name.trim().toLowerCase()).filter(Boolean));

const withoutHopByHop = (original: IncomingHttpHeaders, headers: IncomingHttpHeaders): IncomingHttpHeaders => {
  const named = connectionNamed(original);
  return Object.fromEntries(
    Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name) && !name.startsWith("proxy-") && !named.has(name)),
  );
};

/** The caller's own credentials stay at the edge (no token passthrough); the service gets the assertion. */
const forwardHeaders = (request: Pick<FastifyRequest, "assertion" | "id" | "headers">, headers: IncomingHttpHeaders): IncomingHttpHeaders => {
  const forwarded: IncomingHttpHeaders = {
    ...withoutHopByHop(request.headers, headers),
    [ASSERTION_HEADER]: request.assertion,
    "x-request-id": request.id,
  };
  delete forwarded.authorization;
  delete forwarded.cookie;
  // The trace context the service continues is the gateway's own span's, which the undici instrumentation adds;
  // the caller's copy left in would make two traceparent headers, which a receiver rejects as one invalid value.
  delete forwarded.traceparent;
  delete forwarded.tracestate;
  return forwarded;
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
