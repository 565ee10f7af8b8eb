import httpProxy from "@fastify/http-proxy";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { IncomingHttpHeaders } from "node:http";
import { ASSERTION_HEADER } from "@fit/service-kit";
import { AppError, type Operation } from "@fit/contracts";
import { prefixesByService } from "../auth/operation-index.ts";

export type Upstreams = Partial<Record<Operation["service"], string>>;

/** Headers a service must never see: the caller's own credentials stay at the edge (no token passthrough). */
const CREDENTIAL_HEADERS = ["authorization", "cookie", ASSERTION_HEADER];

const forwardHeaders = <H extends IncomingHttpHeaders>(request: Pick<FastifyRequest, "assertion">, headers: H): H => {
  const forwarded: IncomingHttpHeaders = { ...headers };
  for (const name of CREDENTIAL_HEADERS) delete forwarded[name];
  forwarded[ASSERTION_HEADER] = request.assertion;
  return forwarded as H;
};

/**
 * Forwards each service's /api prefixes to it. Runs inside the scope where the authenticate hook is installed,
 * so nothing reaches a service without an assertion.
 */
export const proxyRoutes = async (app: FastifyInstance, { upstreams }: { upstreams: Upstreams }) => {
  for (const [service, prefixes] of prefixesByService()) {
    const upstream = upstreams[service];
    if (!upstream) continue;
    for (const prefix of prefixes) {
      await app.register(httpProxy, {
        upstream,
        prefix,
        rewritePrefix: prefix,
        replyOptions: {
          rewriteRequestHeaders: forwardHeaders,
          // A service that is down or resets the connection is a 503 for the caller, never a bare 500.
          onError: (reply, { error }) => {
            reply.log.warn({ err: error, service }, "service unavailable");
            void reply.send(new AppError("unavailable", "a service is unavailable"));
          },
        },
      });
    }
  }
};
