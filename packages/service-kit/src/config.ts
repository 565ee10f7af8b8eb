import path from "node:path";
import { z } from "zod";
import { inboxPrefixOf, type NatsCredentials } from "@fit/bus";
import { busAccess, type BusUser } from "@fit/contracts";

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
    /** The service's NATS user and password (both or neither); unset, a server that asks for none. */
    NATS_USER: z.string().optional(),
    NATS_PASSWORD: z.string().optional(),
    /** A PEM file of the certificate authority that signed the NATS server's certificate (with a tls:// URL). */
    NATS_CA: z.string().optional(),
    DATA_DIR: z.string().default("./data"),
    /** How long sent outbox rows are kept before pruning (hours); never less than the stream's 2-minute duplicate window. */
    OUTBOX_RETENTION_HOURS: z.coerce.number().min(0).max(8760).default(168),
    /** How long a request's body may take to arrive (unset: 30 s), and a streamed upload's longest pause (unset: 60 s). */
    REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1_000).optional(),
    UPLOAD_IDLE_TIMEOUT_MS: z.coerce.number().int().min(1_000).optional(),
    /** Shared by the gateway (signs) and the services (verify) for the internal caller assertion. */
    INTERNAL_ASSERTION_SECRET: z.string().min(32, "must be at least 32 characters"),
  });
export type BaseConfig = z.output<ReturnType<typeof baseEnv>>;

/**
 * What a service shows NATS: its user (both or neither of NATS_USER and NATS_PASSWORD), the authority of the
 * server's certificate, and the inbox prefix its user's permissions allow (docs/decisions/0061-per-service-nats-users-and-database-roles.md).
 */
export const natsCredentials = (config: Pick<BaseConfig, "NATS_USER" | "NATS_PASSWORD" | "NATS_CA">, service: string): NatsCredentials => {
  if ((config.NATS_USER === undefined) !== (config.NATS_PASSWORD === undefined)) {
    throw new ConfigError("Invalid configuration:\n  NATS_PASSWORD: NATS_USER and NATS_PASSWORD go together");
  }
  const known = Object.hasOwn(busAccess, service);
  return { user: config.NATS_USER, password: config.NATS_PASSWORD, caFile: config.NATS_CA, inboxPrefix: known ? inboxPrefixOf(service as BusUser) : undefined };
};

/**
 * A relative DATA_DIR is taken from where the person typed the command, not from the package folder pnpm runs
 * a script in: `pnpm start` (launcher/) and `pnpm create-key` both mean <repo>/data when typed at the root.
 * pnpm and npm pass that place as INIT_CWD.
 */
export const resolveDataDir = (dataDir: string, env: NodeJS.ProcessEnv = process.env): string =>
  path.resolve(env.INIT_CWD || process.cwd(), dataDir);
