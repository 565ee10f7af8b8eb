import http from "node:http";
import type { AddressInfo } from "node:net";
import { SpanKind } from "@opentelemetry/api";
import { tracing } from "@opentelemetry/sdk-node";
import { describe, expect, it } from "vitest";
import { startTelemetry, stopTelemetry } from "../../src/index.ts";

describe("startTelemetry", () => {
  it("traces a server of node:http that was loaded before it started", async () => {
    const spans = new tracing.InMemorySpanExporter();
    await startTelemetry("http-first", {}, { spanProcessors: [new tracing.SimpleSpanProcessor(spans)] });
    const server = http.createServer((_request, response) => response.end("ok"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      expect(await (await fetch(`http://127.0.0.1:${port}/traced`)).text()).toBe("ok");
      await expect.poll(() => spans.getFinishedSpans().find((s) => s.kind === SpanKind.SERVER)?.attributes["url.path"]).toBe("/traced");
    } finally {
      server.close();
      await stopTelemetry();
    }
  });
});
