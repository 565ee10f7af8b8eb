import { context, SpanKind, trace } from "@opentelemetry/api";
import { inSpan } from "@fit/telemetry";
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
  return inSpan(tracer, "db.query", { kind: SpanKind.CLIENT, attributes }, context.active(), run);
};
