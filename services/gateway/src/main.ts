import { startTelemetry } from "@fit/telemetry";
import { runUntilSignalled } from "@fit/service-kit";
import { buildGateway, SERVICE } from "./app.ts";
import { loadGatewayConfig } from "./config.ts";

await startTelemetry(SERVICE);
const config = loadGatewayConfig();
const app = await buildGateway({ config });
await runUntilSignalled({ app, host: config.HOST, port: config.PORT });
