import { startTelemetry } from "@fit/telemetry";
import { runUntilSignalled } from "@fit/service-kit";
import { buildBodyMetrics, SERVICE } from "./app.ts";
import { loadBodyMetricsConfig } from "./config.ts";

await startTelemetry(SERVICE);
const config = loadBodyMetricsConfig();
const app = await buildBodyMetrics({ config });
await runUntilSignalled({ app, host: config.HOST, port: config.PORT });
