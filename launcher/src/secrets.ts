import { loadOrCreateLocalSecret } from "@fit/service-kit";
import type { z } from "zod";
import type { launcherEnv } from "./config.ts";

/**
 * On a fresh machine nobody has set secrets yet: make them once, keep them under DATA_DIR (mode 0600), so
 * sessions and keys survive a restart. Set the variables to manage them yourself.
 */
export const localSecrets = async (config: z.output<typeof launcherEnv>) => ({
  INTERNAL_ASSERTION_SECRET:
    config.INTERNAL_ASSERTION_SECRET ?? (await loadOrCreateLocalSecret(config.DATA_DIR, "internal-assertion")),
  BETTER_AUTH_SECRET: config.BETTER_AUTH_SECRET ?? (await loadOrCreateLocalSecret(config.DATA_DIR, "better-auth")),
});
