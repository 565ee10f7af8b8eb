import { startTelemetry } from "@fit/telemetry";

await startTelemetry("imports");
// Imported only now, so the tracing SDK is in place before Fastify loads node:http and can instrument it.
const [{ runUntilSignalled }, { buildImports }, { loadImportsConfig }] = await Promise.all([
  import("@fit/service-kit"),
  import("./app.ts"),
  import("./config.ts"),
]);
const config = loadImportsConfig();
const app = await buildImports({ config });
await runUntilSignalled({ app, host: config.HOST, port: config.PORT });
