import { z } from "zod";
import { baseEnv, loadConfig } from "@fit/service-kit";

const workoutsEnv = baseEnv(3103).extend({
  /** How long a description may wait for the coach to parse it: above its model timeout plus one retry. */
  COACH_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(25_000),
  /** How long an import waits for the coach's energy estimate of a file that states none; past it, it stores none. */
  COACH_ESTIMATE_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(5000),
  /** Activity files read at once, each on a worker thread, and how many more may wait (docs/security.md#25-activity-file-imports). */
  WORKOUTS_IMPORT_THREADS: z.coerce.number().int().min(1).max(16).default(1),
  WORKOUTS_IMPORT_QUEUE: z.coerce.number().int().min(0).max(100).default(8),
  /** Photos read at once, each on an OCR thread (~100 MB apiece while kept), and how many more may wait (docs/decisions/0079-photographed-logs.md). */
  PHOTO_THREADS: z.coerce.number().int().min(1).max(8).default(1),
  PHOTO_QUEUE: z.coerce.number().int().min(0).max(50).default(4),
});
export type WorkoutsConfig = z.output<typeof workoutsEnv>;

export const loadWorkoutsConfig = (env?: NodeJS.ProcessEnv) => loadConfig(workoutsEnv, env);
