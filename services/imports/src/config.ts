import { z } from "zod";
import { baseEnv, loadConfig } from "@fit/service-kit";

const importsEnv = baseEnv(3106).extend({
  /** Records one step of an import reads and writes before its checkpoint (at most 500, one bus question's rows). */
  IMPORT_BATCH_ROWS: z.coerce.number().int().min(1).max(500).default(500),
  /** How long a step may go unacknowledged before another replica takes it again (a replica that died holding it). */
  IMPORT_STEP_ACK_WAIT_MS: z.coerce.number().int().min(1000).default(60_000),
  /** An upload with no import whose last chunk came longer ago than this was cut off (its replica died): pruned hourly. */
  IMPORT_UPLOAD_IDLE_MS: z.coerce.number().int().min(60_000).default(3_600_000),
});
export type ImportsConfig = z.output<typeof importsEnv>;

export const loadImportsConfig = (env?: NodeJS.ProcessEnv) => loadConfig(importsEnv, env);
