import { z } from "zod";
import { baseEnv, loadConfig } from "@fit/service-kit";

const insightsEnv = baseEnv(3105).extend({
  /** How often the read model is compared with body-metrics' and nutrition's data and repaired. */
  RECONCILE_INTERVAL_MS: z.coerce.number().int().min(1000).default(3_600_000),
  /** How many days back a pass compares; the insights read 120 days, a lost event older than this stays lost. */
  INSIGHTS_RECONCILE_WINDOW_DAYS: z.coerce.number().int().min(1).max(3660).default(30),
});
export type InsightsConfig = z.output<typeof insightsEnv>;

export const loadInsightsConfig = (env?: NodeJS.ProcessEnv) => loadConfig(insightsEnv, env);
