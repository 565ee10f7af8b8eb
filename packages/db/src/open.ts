// Opens the service's database: PostgreSQL when a URL is given, else PGlite (PostgreSQL in WASM) on disk.
// Both hand back a Prisma 7 driver adapter factory, so service code is the same in either mode.
import { createHash } from "node:crypto";
import { PrismaPg } from "@prisma/adapter-pg";
import type { Sql } from "@prisma/client/runtime/client";
import pg from "pg";
import { APPLIED, appliedNames, withInternals, type Database } from "./database.ts";
import { applyOnThread } from "./postgres-migrations.ts";
import { openPGlite, type SharedPGlite } from "./pglite.ts";
import { driverTypes } from "./timestamps.ts";
import { tracedQuery } from "./traced-query.ts";

export interface DatabaseConfig {
  /** PostgreSQL connection string; unset means PGlite in `dataDir`. */
  url?: string;
  /**
   * PostgreSQL schema owning the service's tables (created if missing). A PGlite of the service's own keeps
   * them in `public` (one folder per service); a shared one in this schema.
   */
  schema: string;
  /** PGlite data folder, or "memory://" for a throwaway in-memory database. */
  dataDir: string;
  /**
   * A PGlite data folder made at build time with the migrations applied (writePgliteTemplate): a new
   * `dataDir` starts as a copy of it instead of running initdb and every migration. Ignored when missing.
   */
  template?: string;
  /** PostgreSQL pool size (default 10). */
  poolSize?: number;
  /** Called when an idle pooled connection dies; the pool has already dropped it. */
  onPoolError?: (error: Error) => void;
  /** Without a URL: the process's shared PGlite, used instead of `dataDir` and `template`. */
  pglite?: SharedPGlite;
}

const statementNames = new Map<string, string>();

/**
 * A name for a store's statement, from its text: each connection then parses and plans it once and runs it by
 * name after. The texts come from the stores' code (values are parameters), so the names are a fixed few
 * (docs/decisions/0039-named-statements.md).
 */
const statementName = (text: string) => {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `fit_${createHash("sha256").update(text).digest("base64url").slice(0, 32)}`;
    statementNames.set(text, name);
  }
  return name;
};

export async function openDatabase(config: DatabaseConfig): Promise<Database> {
  if (config.url) return openPostgres(config.url, config);
  return config.pglite ? config.pglite.database(config.schema) : openPGlite(config.dataDir, config.template);
}

async function openPostgres(url: string, config: DatabaseConfig): Promise<Database> {
  const schema = config.schema;
  // It goes into a startup option unquoted, so only plain identifiers are allowed.
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`schema "${schema}" must match [a-z_][a-z0-9_]*`);
  // search_path puts raw SQL and migrations in the schema; PrismaPg's { schema } qualifies the client's own
  // queries. Either alone leaves tables in public. allowExitOnIdle lets one-shot scripts exit promptly.
  // application_name names the service's sessions in pg_stat_activity. A named statement keeps its one generic
  // plan: left to choose, PostgreSQL re-plans it for every call once statistics show one account far larger than
  // the rest (docs/decisions/0048-generic-plans.md).
  const connection = { connectionString: url, options: `-c search_path=${schema} -c plan_cache_mode=force_generic_plan`, application_name: schema };
  const pool = new pg.Pool({ ...connection, types: driverTypes, max: config.poolSize ?? 10, allowExitOnIdle: true });
  pool.on("error", (error) => config.onPoolError?.(error));
  // A connection that dies while checked out (between a transaction's statements, say) emits 'error' on its
  // client; without a listener that would take the process down. The next use of it fails instead, and is
  // answered as the database being unavailable.
  pool.on("connect", (client) => client.on("error", (error) => config.onPoolError?.(error)));
  try {
    await ensureSchema(pool, schema);
  } catch (error) {
    await pool.end();
    throw error;
  }
  const outboxPool = new pg.Pool({
    ...connection,
    // The relay's claims and settles are bookkeeping of an at-least-once delivery: one lost in a crash only
    // means the row is published again, which the stream drops as a duplicate or a consumer applies twice
    // harmlessly. Not waiting for their WAL flush spares two of every write's three disk flushes
    // (docs/decisions/0033-outbox-lease-reconcile-lock-readiness.md).
    // Its statements keep the generic plan made at their first run, often on a near-empty table; with sequential
    // and bitmap scans off that plan is the index scan the queue needs at any size (docs/decisions/0038-outbox-pending-index.md).
    options: `${connection.options} -c synchronous_commit=off -c enable_seqscan=off -c enable_bitmapscan=off`,
    application_name: `${schema}:outbox`,
    max: 1,
    allowExitOnIdle: true,
  });
  outboxPool.on("error", (error) => config.onPoolError?.(error));
  outboxPool.on("connect", (client) => client.on("error", (error) => config.onPoolError?.(error)));
  const close = async () => {
    await Promise.all([pool.end(), outboxPool.end()]);
  };
  const db: Database = {
    kind: "postgres",
    adapter: new PrismaPg(pool, { schema }),
    query: <R>(statement: Sql) =>
      tracedQuery(statement, async () => (await pool.query({ name: statementName(statement.text), text: statement.text, values: statement.values })).rows as R[]),
    close,
  };
  return withInternals(db, {
    outbox: {
      query: async <R>(text: string, params?: unknown[]) => (await outboxPool.query({ name: statementName(text), text, values: params })).rows as R[],
    },
    applyMigrations: (service) => applyOnThread({ connection, schema, service }),
    appliedMigrations: () => appliedNames(() => pool.query<{ migration_name: string }>(APPLIED)),
    exclusively: (name, fn) => postgresExclusively(connection, schema, name, fn),
    threadDatabase: { url, schema },
  });
}

/**
 * A session-level advisory lock on a connection of its own, for as long as `fn` runs: on a pooled connection
 * it would outlive `fn` or be unlocked from another session. The connection closing (here, or the process
 * dying) releases it, so a replica that crashes mid-run never blocks the others.
 */
async function postgresExclusively<T>(connection: pg.ClientConfig, schema: string, name: string, fn: () => Promise<T>) {
  const client = new pg.Client({ ...connection, application_name: `${schema}:lock` });
  client.on("error", () => {}); // a dead connection ends the lock; fn's own queries report the outage
  await client.connect();
  try {
    const { rows } = await client.query<{ locked: boolean }>("SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked", [`fit:${schema}:${name}`]);
    return rows[0]?.locked ? { value: await fn() } : null;
  } finally {
    await client.end();
  }
}

async function ensureSchema(pool: pg.Pool, schema: string): Promise<void> {
  // Look first: CREATE SCHEMA IF NOT EXISTS still needs the CREATE right, which a service role may lack.
  const found = await pool.query("SELECT 1 FROM pg_namespace WHERE nspname = $1", [schema]);
  if (found.rowCount) return;
  await pool.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`).catch((error: { code?: string }) => {
    // Two replicas creating it at once: the loser gets a unique violation on pg_namespace.
    if (error.code !== "23505") throw error;
  });
}
