import { ROOT_CONTEXT, SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { tracing } from "@opentelemetry/sdk-node";
import { describe, expect, it } from "vitest";
import { inSpan } from "../../src/index.ts";

const exporter = new tracing.InMemorySpanExporter();
const tracer = new tracing.BasicTracerProvider({ spanProcessors: [new tracing.SimpleSpanProcessor(exporter)] }).getTracer("spans-test");

describe("inSpan", () => {
  it("ends the span with its kind and attributes, and hands back what fn returned", async () => {
    exporter.reset();
    expect(await inSpan(tracer, "ok", { kind: SpanKind.CLIENT, attributes: { a: "1" } }, ROOT_CONTEXT, async () => 42)).toBe(42);
    const [span] = exporter.getFinishedSpans();
    expect(span).toMatchObject({ name: "ok", kind: SpanKind.CLIENT, attributes: { a: "1" }, status: { code: SpanStatusCode.UNSET } });
  });

  it("marks the span as an error with the failure's message, ends it, and rethrows", async () => {
    exporter.reset();
    await expect(inSpan(tracer, "fails", {}, ROOT_CONTEXT, async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    const [span] = exporter.getFinishedSpans();
    expect(span).toMatchObject({ name: "fails", status: { code: SpanStatusCode.ERROR, message: "boom" } });
  });
});
