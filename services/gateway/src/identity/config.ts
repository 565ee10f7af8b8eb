// The identity settings the gateway and the create-key CLI share, parsed once from the environment.
// The gateway's own config (src/config.ts) carries the same variables; the CLI reads only these, so it runs
// without the gateway's other secrets.
import path from "node:path";
import { z } from "zod";
import { loadConfig } from "@fit/service-kit";

export const identityEnv = z.object({
  /** The address people use; https turns on Secure, __Secure- cookies. */
  PUBLIC_URL: z.url().default("http://localhost:3000"),
  /** Signs session cookies. Unset: a generated one persisted under DATA_DIR (see local-secrets.ts). */
  BETTER_AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  /** smtp(s)://user:pass@host:port; unset: magic links are printed instead of mailed. */
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL" }).optional(),
  MAIL_FROM: z.string().default("Fitness <no-reply@localhost>"),
  DATA_DIR: z.string().default("./data"),
  /** Unset: embedded PGlite under DATA_DIR/gateway. Set: PostgreSQL, schema `identity`. */
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: "must be a postgres:// URL" }).optional(),
});
export type IdentityConfig = z.output<typeof identityEnv>;

export const loadIdentityConfig = (env: NodeJS.ProcessEnv = process.env): IdentityConfig => {
  const config = loadConfig(identityEnv, env);
  return { ...config, DATA_DIR: resolveDataDir(config.DATA_DIR, env) };
};

/**
 * A relative DATA_DIR is taken from where the person typed the command, not from the package folder pnpm runs
 * a script in: `pnpm start` (launcher/) and `pnpm --filter @fit/gateway create-key` (services/gateway/) both
 * mean <repo>/data when typed at the root. pnpm and npm pass that place as INIT_CWD.
 */
export const resolveDataDir = (dataDir: string, env: NodeJS.ProcessEnv = process.env): string =>
  path.resolve(env.INIT_CWD || process.cwd(), dataDir);

/** Where the identity data lives, so the gateway and the CLI open the same database and socket. */
export const identityLocations = (dataDir: string) => ({
  /** PGlite folder (embedded mode only). */
  pgliteDir: path.join(dataDir, "gateway"),
  /** PostgreSQL schema (server mode only). */
  schema: "identity",
  /** The running gateway's admin endpoint; see admin-socket.ts. */
  adminSocket: path.join(dataDir, "gateway-admin.sock"),
  /** Name of the generated BETTER_AUTH_SECRET under DATA_DIR/secrets. */
  secretName: "better-auth",
});
