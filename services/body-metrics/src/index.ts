export { buildBodyMetrics, bodyMetricsDatabase } from "./app.ts";
export { loadBodyMetricsConfig } from "./config.ts";
