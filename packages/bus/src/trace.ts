import { context, propagation, ROOT_CONTEXT, SpanKind, trace, type Context } from "@opentelemetry/api";
import { inSpan as inTracerSpan } from "@fit/telemetry";

// Hand-made spans: there is no OpenTelemetry instrumentation for nats.js. Without an SDK all of this is a no-op.
const tracer = trace.getTracer("@fit/bus");

export { SpanKind };

/** Writes the active trace context (traceparent) into outgoing headers. */
export const injectTrace = (headers: Record<string, string>): void => {
  propagation.inject(context.active(), headers);
};

/** The trace context a message carried, so the receiving side continues the caller's trace. */
export const extractTrace = (headers: Record<string, string>): Context => propagation.extract(ROOT_CONTEXT, headers);

/**
 * Runs fn in a span of the given kind, child of `parent`, recording a failure on the span; `links` are the other
 * traces it works for (a batch of events, each from its own request).
 */
export const inSpan = <T>(
  name: string,
  kind: SpanKind,
  parent: Context,
  attributes: Record<string, string>,
  fn: () => Promise<T>,
  links: Context[] = [],
): Promise<T> =>
  inTracerSpan(
    tracer,
    name,
    { kind, attributes: { "messaging.system": "nats", ...attributes }, links: links.flatMap(spanLink) },
    parent,
    fn,
  );

const spanLink = (linked: Context) => {
  const spanContext = trace.getSpanContext(linked);
  return spanContext ? [{ context: spanContext }] : [];
};
