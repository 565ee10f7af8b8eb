import { trace } from "@opentelemetry/api";
import { tracing } from "@opentelemetry/sdk-node";
import { describe, expect, it } from "vitest";
import { startTelemetry, stopTelemetry } from "../../src/index.ts";

describe("stopTelemetry", () => {
  it("exports the spans still buffered when the service stops", async () => {
    // Not the SDK's in-memory exporter: its own shutdown forgets what it was given.
    const exported: string[] = [];
    const exporter: tracing.SpanExporter = {
      export: (spans, done) => {
        exported.push(...spans.map((s) => s.name));
        done({ code: 0 });
      },
      shutdown: async () => {},
    };
    // A batch far from due: only the shutdown's flush can export it.
    const processor = new tracing.BatchSpanProcessor(exporter, { scheduledDelayMillis: 3_600_000 });
    await startTelemetry("stop-test", {}, { spanProcessors: [processor] });
    trace.getTracer("stop-test").startSpan("drained request").end();
    expect(exported).toEqual([]);

    await stopTelemetry();
    expect(exported).toEqual(["drained request"]);
  });
});
