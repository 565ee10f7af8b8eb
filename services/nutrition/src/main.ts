import { startTelemetry } from "@fit/telemetry";

await startTelemetry("nutrition");
// Imported only now, so the tracing SDK is in place before Fastify loads node:http and can instrument it.
const [{ runUntilSignalled }, { buildNutrition }, { loadNutritionConfig }] = await Promise.all([
  import("@fit/service-kit"),
  import("./app.ts"),
  import("./config.ts"),
]);
const config = loadNutritionConfig();
const app = await buildNutrition({ config });
await runUntilSignalled({ app, host: config.HOST, port: config.PORT });
