import { z } from "zod";
import { loadConfig, resolveDataDir } from "@fit/service-kit";

const DEFAULT_DATA_DIR = "./data";

export const launcherEnv = z.object({
  DATA_DIR: z.string().default(DEFAULT_DATA_DIR),
  HOST: z.string().default("127.0.0.1"),
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  DATABASE_URL: z.string().optional(),
  NATS_URL: z.string().optional(),
  INTERNAL_ASSERTION_SECRET: z.string().min(32).optional(),
  BETTER_AUTH_SECRET: z.string().min(32).optional(),
  /** start:services gives body-metrics this port and each next service one more, in the order it lists them. */
  SERVICES_PORT: z.coerce.number().int().min(1).max(65_530).default(3101),
  /** start:services gives each service a metrics port of its own from here on, in the order it lists them. */
  METRICS_PORT: z.coerce.number().int().min(1).max(65_531).optional(),
});

/**
 * DATA_DIR is made absolute here (relative to where the command was typed), so every service agrees on it.
 * `dataDirFlag`: what a command such as create-key needs in front to find this data, empty for the default.
 */
export const loadLauncherConfig = () => {
  const parsed = loadConfig(launcherEnv);
  const config = { ...parsed, DATA_DIR: resolveDataDir(parsed.DATA_DIR) };
  const dataDirFlag = config.DATA_DIR === resolveDataDir(DEFAULT_DATA_DIR) ? "" : `DATA_DIR=${config.DATA_DIR} `;
  return { config, env: { ...process.env, DATA_DIR: config.DATA_DIR }, dataDirFlag };
};
