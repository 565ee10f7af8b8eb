import { baseEnv, loadConfig } from "@fit/service-kit";

const bodyMetricsEnv = baseEnv(3101);
export type BodyMetricsConfig = ReturnType<typeof bodyMetricsEnv.parse>;

export const loadBodyMetricsConfig = (env?: NodeJS.ProcessEnv) => loadConfig(bodyMetricsEnv, env);
