import { z } from "zod";
import { baseEnv, loadConfig } from "@fit/service-kit";

const workoutsEnv = baseEnv(3103).extend({
  /** How long a description may wait for the coach to parse it: above its model timeout plus one retry. */
  COACH_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(25_000),
});
export type WorkoutsConfig = z.output<typeof workoutsEnv>;

export const loadWorkoutsConfig = (env?: NodeJS.ProcessEnv) => loadConfig(workoutsEnv, env);
