import { startTelemetry } from "@fit/telemetry";

await startTelemetry("body-metrics");
// Imported only now, so the tracing SDK is in place before Fastify loads node:http and can instrument it.
const [{ runUntilSignalled }, { buildBodyMetrics }, { loadBodyMetricsConfig }] = await Promise.all([
  import("@fit/service-kit"),
  import("./app.ts"),
  import("./config.ts"),
]);
const config = loadBodyMetricsConfig();
const app = await buildBodyMetrics({ config });
await runUntilSignalled({ app, host: config.HOST, port: config.PORT });
