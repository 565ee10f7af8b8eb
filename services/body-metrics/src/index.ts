export { buildBodyMetrics } from "./app.ts";
export { loadBodyMetricsConfig } from "./config.ts";
