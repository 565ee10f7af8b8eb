import { startTelemetry } from "@fit/telemetry";

await startTelemetry("insights");
// Imported only now, so the tracing SDK is in place before Fastify loads node:http and can instrument it.
const [{ runUntilSignalled }, { buildInsights }, { loadInsightsConfig }] = await Promise.all([
  import("@fit/service-kit"),
  import("./app.ts"),
  import("./config.ts"),
]);
const config = loadInsightsConfig();
const app = await buildInsights({ config });
await runUntilSignalled({ app, host: config.HOST, port: config.PORT });
