import { startTelemetry } from "@fit/telemetry";
import { runUntilSignalled } from "@fit/service-kit";
import { buildNutrition, SERVICE } from "./app.ts";
import { loadNutritionConfig } from "./config.ts";

await startTelemetry(SERVICE);
const config = loadNutritionConfig();
const app = await buildNutrition({ config });
await runUntilSignalled({ app, host: config.HOST, port: config.PORT });
