import { SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import type { Sql } from "@prisma/client/runtime/client";

// Statements a store runs on the driver get a span of their own, as the Prisma client's have; without an SDK
// (telemetry off) there is never an active span and this costs one lookup.
const tracer = trace.getTracer("@fit/db");

/**
 * Runs `statement` with `run`, in a client span when a request or event is being traced; statements made
 * outside one (the outbox relay's polls) would each start a trace of their own, so they are not traced.
 */
export const tracedQuery = <R>(statement: Sql, run: () => Promise<R[]>): Promise<R[]> => {
  if (!trace.getActiveSpan()) return run();
  const attributes = { "db.system.name": "postgresql", "db.query.text": statement.text };
  return tracer.startActiveSpan("db.query", { kind: SpanKind.CLIENT, attributes }, async (span) => {
    try {
      return await run();
    } catch (err) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
      throw err;
    } finally {
      span.end();
    }
  });
};
