import path from "node:path";
import { z } from "zod";

export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

/**
 * Parses the environment once at start-up. A wrong or missing value stops the process with a message that
 * names every offending variable, instead of failing later somewhere deep.
 */
export const loadConfig = <S extends z.ZodObject>(schema: S, env: NodeJS.ProcessEnv = process.env): z.output<S> => {
  const blankAsUnset = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ""));
  const result = schema.safeParse(blankAsUnset);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => `  ${issue.path.join(".") || "(env)"}: ${issue.message}`);
  throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
};

const port = (fallback: number) => z.coerce.number().int().min(0).max(65_535).default(fallback);

/** Variables every service reads; each service extends this with its own. */
export const baseEnv = (defaultPort: number) =>
  z.object({
    HOST: z.string().default("127.0.0.1"),
    PORT: port(defaultPort),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    /** Unset: embedded PGlite under DATA_DIR. Set: PostgreSQL, in the service's own schema. */
    DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: "must be a postgres:// URL" }).optional(),
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
    /** Unset: the in-process bus (only meaningful when every service runs in one process). */
    NATS_URL: z.string().regex(/^(nats|tls|wss?):\/\//, "must be a nats:// URL").optional(),
    /** Prefix of every subject and stream, to keep several deployments (or test runs) apart on one NATS. */
    NATS_NAMESPACE: z.string().regex(/^[A-Za-z0-9_-]+$/, "must be letters, digits, _ or -").optional(),
    DATA_DIR: z.string().default("./data"),
    /** How long sent outbox rows are kept before pruning (hours); never less than the stream's 2-minute duplicate window. */
    OUTBOX_RETENTION_HOURS: z.coerce.number().min(0).max(8760).default(168),
    /** Shared by the gateway (signs) and the services (verify) for the internal caller assertion. */
    INTERNAL_ASSERTION_SECRET: z.string().min(32, "must be at least 32 characters"),
  });
export type BaseConfig = z.output<ReturnType<typeof baseEnv>>;

/**
 * A relative DATA_DIR is taken from where the person typed the command, not from the package folder pnpm runs
 * a script in: `pnpm start` (launcher/) and `pnpm create-key` both mean <repo>/data when typed at the root.
 * pnpm and npm pass that place as INIT_CWD.
 */
export const resolveDataDir = (dataDir: string, env: NodeJS.ProcessEnv = process.env): string =>
  path.resolve(env.INIT_CWD || process.cwd(), dataDir);
