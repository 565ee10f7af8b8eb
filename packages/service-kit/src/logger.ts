import { trace } from "@opentelemetry/api";
import type { FastifyServerOptions } from "fastify";

/** JSON logs carrying the active trace id, so a line leads to its trace. */
export const loggerOptions = (service: string, level: string): FastifyServerOptions["logger"] => ({
  level,
  base: { service },
  mixin() {
    const span = trace.getActiveSpan()?.spanContext();
    return span ? { traceId: span.traceId, spanId: span.spanId } : {};
  },
  redact: ["req.headers.authorization", "req.headers.cookie", 'req.headers["x-fit-assertion"]'],
});
