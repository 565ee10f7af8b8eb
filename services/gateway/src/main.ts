import { startTelemetry } from "@fit/telemetry";

await startTelemetry("gateway");
// Imported only now, so the tracing SDK is in place before Fastify loads node:http and can instrument it.
const [{ runUntilSignalled }, { buildGateway }, { loadGatewayConfig }] = await Promise.all([
  import("@fit/service-kit"),
  import("./app.ts"),
  import("./config.ts"),
]);
const config = loadGatewayConfig();
const app = await buildGateway({ config });
await runUntilSignalled({ app, host: config.HOST, port: config.PORT });
