import { SpanStatusCode, type Context, type Span, type SpanOptions, type Tracer } from "@opentelemetry/api";

/**
 * Runs `fn` in an active span of `tracer`, child of `parent`: a failure marks the span as an error and is
 * rethrown, and the span ends either way. The one wrapper behind every hand-made span (bus hops, statements on
 * the driver); without an SDK the tracer is the API's no-op.
 */
export const inSpan = <T>(tracer: Tracer, name: string, options: SpanOptions, parent: Context, fn: (span: Span) => Promise<T>): Promise<T> =>
  tracer.startActiveSpan(name, options, parent, async (span) => {
    try {
      return await fn(span);
    } catch (err) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
      throw err;
    } finally {
      span.end();
    }
  });
