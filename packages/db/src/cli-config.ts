import { z } from "zod";

const CliEnv = z.object({
  /** Unset or empty: the service's PGlite folder. */
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: "must be a postgres:// URL" }).optional().or(z.literal("").transform(() => undefined)),
});

/** The migration CLI's environment, read once. */
export const loadCliConfig = (env: NodeJS.ProcessEnv = process.env) => CliEnv.parse(env);
