export { buildInsights, insightsDatabase } from "./app.ts";
export { loadInsightsConfig } from "./config.ts";
