import type { metrics as sdkMetrics, tracing } from "@opentelemetry/sdk-node";
import { createRequire } from "node:module";
import { loadTelemetryConfig, type TelemetryConfig } from "./config.ts";

export { loadTelemetryConfig, type TelemetryConfig } from "./config.ts";
export { lazyInstruments } from "./instruments.ts";
export { inSpan } from "./spans.ts";

/** Where spans and metrics go besides OTLP and Prometheus: a test's in-memory exporter and reader. */
export interface TelemetryOptions {
  spanProcessors?: tracing.SpanProcessor[];
  metricReaders?: sdkMetrics.IMetricReader[];
}

export interface Telemetry {
  /** Flushes what is buffered and stops exporting. */
  shutdown(): Promise<void>;
}

let started: Promise<Telemetry | null> | undefined;

/**
 * Starts OpenTelemetry in this process: traces (HTTP in and out, undici and fetch, Prisma; NATS hops carry
 * `traceparent` through @fit/bus) when an OTLP endpoint is configured, metrics on a Prometheus port when
 * METRICS_PORT is. With neither, nothing is loaded: the instruments in the code stay the API's no-ops, so the
 * embedded default stays light (docs/decisions/0032-telemetry-on-demand.md). Call it first thing in main.ts,
 * before the modules that load node:http, so the HTTP instrumentation can patch it.
 */
export const startTelemetry = (service: string, config: TelemetryConfig = loadTelemetryConfig(), options: TelemetryOptions = {}) => {
  started ??= (async () => {
    const tracingOn = Boolean(config.OTEL_EXPORTER_OTLP_ENDPOINT) || Boolean(options.spanProcessors?.length);
    const metricsOn = config.METRICS_PORT !== undefined || Boolean(options.metricReaders?.length);
    if (!tracingOn && !metricsOn) return null;
    const { NodeSDK, metrics, tracing } = await import("@opentelemetry/sdk-node");
    const spanProcessors = [...(options.spanProcessors ?? [])];
    if (config.OTEL_EXPORTER_OTLP_ENDPOINT) {
      const { OTLPTraceExporter } = await import("@opentelemetry/exporter-trace-otlp-http");
      spanProcessors.push(new tracing.BatchSpanProcessor(new OTLPTraceExporter()));
    }
    const metricReaders = [...(options.metricReaders ?? [])];
    if (config.METRICS_PORT !== undefined) {
      const { PrometheusExporter } = await import("@opentelemetry/exporter-prometheus");
      metricReaders.push(new PrometheusExporter({ port: config.METRICS_PORT, host: config.METRICS_HOST ?? config.HOST ?? "127.0.0.1" }));
    }
    const sdk = new NodeSDK({
      serviceName: config.OTEL_SERVICE_NAME ?? service,
      // Explicit lists, even empty: left out, the SDK would fall back to OTLP exporters on localhost.
      spanProcessors,
      metricReaders,
      logRecordProcessors: [],
      // The service kit records http.server.request.duration with the route Fastify matched, which the HTTP
      // instrumentation cannot know; its own route-less copy would only double the series.
      views: [{ meterName: "@opentelemetry/instrumentation-http", aggregation: { type: metrics.AggregationType.DROP } }],
      instrumentations: tracingOn ? await instrumentations() : [],
    });
    sdk.start();
    // The HTTP instrumentation patches node:http and node:https when they are next required, not when it starts:
    // a process that loaded them before this call (a test harness, a module imported ahead of main.ts's call)
    // would otherwise serve and send untraced until some later module happened to require them.
    if (tracingOn) {
      const require = createRequire(import.meta.url);
      require("node:http");
      require("node:https");
    }
    return { shutdown: () => sdk.shutdown() };
  })();
  return started;
};

/**
 * Flushes the spans and metrics still buffered and stops exporting; the service kit calls it last on shutdown,
 * so the spans of the requests drained during it are not lost. Nothing to do when telemetry never started.
 */
export const stopTelemetry = async (): Promise<void> => {
  await (await started)?.shutdown();
};

const instrumentations = async () => {
  const [{ HttpInstrumentation }, { UndiciInstrumentation }, { PrismaInstrumentation }] = await Promise.all([
    import("@opentelemetry/instrumentation-http"),
    // The gateway forwards over undici's pools and the coach calls its model with fetch:
    // neither goes through node:http, both publish undici's diagnostics channels.
    import("@opentelemetry/instrumentation-undici"),
    import("@prisma/instrumentation"),
  ]);
  return [new HttpInstrumentation(), new UndiciInstrumentation(), new PrismaInstrumentation()];
};
