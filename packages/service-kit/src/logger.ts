import { trace } from "@opentelemetry/api";
import type { FastifyRequest, FastifyServerOptions } from "fastify";

/** Query parameters that carry a credential (magic-link and OAuth tokens, codes) never reach a log line. */
const SECRET_PARAMS = /([?&](?:token|code|state|key|secret|password|access_token|refresh_token)=)[^&#]*/gi;

export const redactUrl = (url: string) => url.replace(SECRET_PARAMS, "$1[redacted]");

/** JSON logs carrying the active trace id, so a line leads to its trace. */
export const loggerOptions = (service: string, level: string): FastifyServerOptions["logger"] => ({
  level,
  base: { service },
  mixin() {
    const span = trace.getActiveSpan()?.spanContext();
    return span ? { traceId: span.traceId, spanId: span.spanId } : {};
  },
  redact: ["req.headers.authorization", "req.headers.cookie", 'req.headers["x-fit-assertion"]'],
  serializers: {
    req: (request: FastifyRequest) => ({
      method: request.method,
      url: redactUrl(request.url),
      host: request.host,
      remoteAddress: request.ip,
    }),
  },
});
