export { buildBodyMetrics, SERVICE as BODY_METRICS } from "./app.ts";
export { bodyMetricsEnv, loadBodyMetricsConfig, type BodyMetricsConfig } from "./config.ts";
