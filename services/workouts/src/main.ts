import { startTelemetry } from "@fit/telemetry";

await startTelemetry("workouts");
// Imported only now, so the tracing SDK is in place before Fastify loads node:http and can instrument it.
const [{ runUntilSignalled }, { buildWorkouts }, { loadWorkoutsConfig }] = await Promise.all([
  import("@fit/service-kit"),
  import("./app.ts"),
  import("./config.ts"),
]);
const config = loadWorkoutsConfig();
const app = await buildWorkouts({ config });
await runUntilSignalled({ app, host: config.HOST, port: config.PORT });
