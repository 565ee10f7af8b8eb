import { loadTelemetryConfig } from "./config.ts";

let started: Promise<{ shutdown(): Promise<void> } | null> | undefined;

/**
 * Starts OpenTelemetry tracing (HTTP, Prisma; NATS hops carry `traceparent` through @fit/bus) when an OTLP
 * endpoint is configured. Without one nothing is loaded, so the embedded default stays light.
 * Call it first thing in main.ts.
 */
export const startTelemetry = (service: string, config = loadTelemetryConfig()) => {
  started ??= (async () => {
    if (!config.OTEL_EXPORTER_OTLP_ENDPOINT) return null;
    const [{ NodeSDK }, { OTLPTraceExporter }, { HttpInstrumentation }, { PrismaInstrumentation }] = await Promise.all([
      import("@opentelemetry/sdk-node"),
      import("@opentelemetry/exporter-trace-otlp-http"),
      import("@opentelemetry/instrumentation-http"),
      import("@prisma/instrumentation"),
    ]);
    const sdk = new NodeSDK({
      serviceName: config.OTEL_SERVICE_NAME ?? service,
      traceExporter: new OTLPTraceExporter(),
      instrumentations: [new HttpInstrumentation(), new PrismaInstrumentation()],
    });
    sdk.start();
    return { shutdown: () => sdk.shutdown() };
  })();
  return started;
};
