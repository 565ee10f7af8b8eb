import replyFrom from "@fastify/reply-from";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { IncomingHttpHeaders } from "node:http";
import { AppError, operationList, type Operation } from "@fit/contracts";
import { ASSERTION_HEADER, BODY_LIMIT } from "@fit/service-kit";

export type Upstreams = Record<Exclude<Operation["service"], "gateway">, string>;

/** The caller's own credentials stay at the edge (no token passthrough); the service gets the assertion. */
const forwardHeaders = (request: Pick<FastifyRequest, "assertion" | "id">, headers: IncomingHttpHeaders): IncomingHttpHeaders => {
  const forwarded: IncomingHttpHeaders = { ...headers, [ASSERTION_HEADER]: request.assertion, "x-request-id": request.id };
  delete forwarded.authorization;
  delete forwarded.cookie;
  // The trace context the service continues is the gateway's own span's, which the undici instrumentation adds;
  // the caller's copy left in would make two traceparent headers, which a receiver rejects as one invalid value.
  delete forwarded.traceparent;
  delete forwarded.tracestate;
  return forwarded;
};

/**
 * One route per contract operation a service serves, registered from the contracts' table: Fastify's match is
 * the only routing, and the route carries its operation for the scope check. The body is passed on as the
 * bytes that came in (the owning service parses and validates it against the same schema), within the same
 * size limit. Runs inside the scope where the authenticate hooks are installed, so nothing reaches a service
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

  for (const op of operationList) {
    if (op.service === "gateway") continue;
    const upstream = upstreams[op.service];
    app.route({
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
            errorReply.log.warn({ err: error, service: op.service }, "service unavailable");
            void errorReply.send(new AppError("unavailable", "a service is unavailable"));
          },
        }),
    });
  }
};
