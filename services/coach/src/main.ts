import { startTelemetry } from "@fit/telemetry";

await startTelemetry("coach");
// Imported only now, so the tracing SDK is in place before Fastify loads node:http and can instrument it.
const [{ runUntilSignalled }, { buildCoach }, { loadCoachConfig }] = await Promise.all([
  import("@fit/service-kit"),
  import("./app.ts"),
  import("./config.ts"),
]);
const config = loadCoachConfig();
const app = await buildCoach({ config });
await runUntilSignalled({ app, host: config.HOST, port: config.PORT });
