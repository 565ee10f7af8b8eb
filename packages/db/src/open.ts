// Opens the service's database: PostgreSQL when a URL is given, else PGlite (PostgreSQL in WASM) on disk.
// Both hand back a Prisma 7 driver adapter factory, so service code is the same in either mode.
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { chmod, copyFile, mkdir, readdir } from "node:fs/promises";
import path from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import type { Sql } from "@prisma/client/runtime/client";
import pg from "pg";
import { scriptSafeFactory } from "./migration-adapter.ts";
import { tracedQuery } from "./traced-query.ts";

export interface DatabaseConfig {
  /** PostgreSQL connection string; unset means PGlite in `dataDir`. */
  url?: string;
  /** PostgreSQL schema owning the service's tables (created if missing). PGlite ignores it: one folder per service. */
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
}

export interface Database {
  kind: "postgres" | "pglite";
  /** Pass as `new PrismaClient({ adapter: db.adapter })`. */
  adapter: SqlMigrationAwareDriverAdapterFactory;
  /**
   * One statement straight on the connections the adapter uses, without the Prisma client's query machinery:
   * for a store's hot paths (docs/decisions/0036-hot-paths-on-the-driver.md). Rows come as the driver
   * gives them (timestamps as Date, float8 and int4 as number).
   */
  query<R>(statement: Sql): Promise<R[]>;
  close(): Promise<void>;
}

type Query = <R>(text: string, params?: unknown[]) => Promise<R[]>;

/** Plain SQL outside Prisma, for the outbox relay. */
interface OutboxConnection {
  query: Query;
}

/** What migrate() and the outbox relay need beyond the public surface. */
export interface DatabaseInternals {
  /**
   * The outbox relay's connection. On PostgreSQL it is its own, beside the pool: the relay polls every
   * 200 ms and must neither wait for a pooled connection behind a burst of requests nor keep one from them.
   */
  outbox: OutboxConnection;
  /**
   * Runs `fn` with an adapter factory for the schema engine while no other migrate() of the same schema
   * runs (in any process, for PostgreSQL).
   */
  migrationSession<T>(fn: (factory: SqlMigrationAwareDriverAdapterFactory) => Promise<T>): Promise<T>;
  /** Names recorded as finished in _prisma_migrations (none when the table does not exist yet). */
  appliedMigrations(): Promise<Set<string>>;
  /** See runExclusively. */
  exclusively<T>(name: string, fn: () => Promise<T>): Promise<{ value: T } | null>;
}

const APPLIED = "SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL";

const appliedNames = async (query: () => Promise<{ rows: { migration_name: string }[] }>) => {
  try {
    return new Set((await query()).rows.map((r) => r.migration_name));
  } catch (error) {
    if ((error as { code?: string }).code === "42P01") return new Set<string>(); // no table: nothing applied
    throw error;
  }
};

const internals = new WeakMap<Database, DatabaseInternals>();

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

export function internalsOf(db: Database): DatabaseInternals {
  const found = internals.get(db);
  if (!found) throw new Error("not a Database from openDatabase()");
  return found;
}

export async function openDatabase(config: DatabaseConfig): Promise<Database> {
  return config.url ? openPostgres(config.url, config) : openPGlite(config.dataDir, config.template);
}

async function openPostgres(url: string, config: DatabaseConfig): Promise<Database> {
  const schema = config.schema;
  // It goes into a startup option unquoted, so only plain identifiers are allowed.
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`schema "${schema}" must match [a-z_][a-z0-9_]*`);
  // search_path puts raw SQL and migrations in the schema; PrismaPg's { schema } qualifies the client's own
  // queries. Either alone leaves tables in public. allowExitOnIdle lets one-shot scripts exit promptly.
  // application_name names the service's sessions in pg_stat_activity.
  const connection = { connectionString: url, options: `-c search_path=${schema}`, application_name: schema };
  const pool = new pg.Pool({ ...connection, max: config.poolSize ?? 10, allowExitOnIdle: true });
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
    options: `${connection.options} -c synchronous_commit=off`,
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
  internals.set(db, {
    outbox: {
      query: async <R>(text: string, params?: unknown[]) => (await outboxPool.query({ name: statementName(text), text, values: params })).rows as R[],
    },
    migrationSession: (fn) => postgresMigrationSession(connection, schema, fn),
    appliedMigrations: () => appliedNames(() => pool.query<{ migration_name: string }>(APPLIED)),
    exclusively: (name, fn) => postgresExclusively(connection, schema, name, fn),
  });
  return db;
}

/**
 * Migrations get connections of their own, closed afterwards, because the engine takes the global advisory
 * lock 72707369 and never releases it: on the shared pool that lock would stay with an idle connection and
 * stall every other service migrating in the same database. Before the engine starts, a lock keyed on the
 * schema makes replicas of one service wait for each other (no timeout, unlike the engine's 10 s).
 */
async function postgresMigrationSession<T>(
  connection: pg.PoolConfig,
  schema: string,
  fn: (factory: SqlMigrationAwareDriverAdapterFactory) => Promise<T>,
): Promise<T> {
  // Two connections: PrismaPg takes a pooled client for a transaction while the engine may still query.
  // No idle timeout, so the locks live exactly as long as this pool.
  const pool = new pg.Pool({ ...connection, application_name: `${schema}:migrate`, max: 2, idleTimeoutMillis: 0 });
  pool.on("error", () => {}); // a dead connection fails the engine's next query, which reports it
  try {
    await pool.query("SELECT pg_advisory_lock(hashtext($1))", [`fit-db-migrate:${schema}`]);
    return await fn(scriptSafeFactory(new PrismaPg(pool, { schema }), (script) => pool.query(script)));
  } finally {
    await pool.end(); // closing the sessions releases both advisory locks
  }
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

async function openPGlite(dataDir: string, template: string | undefined): Promise<Database> {
  const inMemory = dataDir.startsWith("memory://");
  // Owner-only whatever DATA_DIR's own mode: PGlite writes its files 0666 whatever the umask, so the folder
  // (0700) is what keeps other local users out of the database (docs/security.md#14-secrets-at-rest).
  if (!inMemory) {
    await mkdir(path.resolve(dataDir), { recursive: true, mode: 0o700 });
    await chmod(path.resolve(dataDir), 0o700);
  }
  const folder = inMemory ? dataDir : path.resolve(dataDir);
  // initdb alone takes seconds per folder; the template already holds a stopped cluster with the migrations.
  const isCluster = (dir: string) => existsSync(path.join(dir, "PG_VERSION"));
  if (!inMemory && template !== undefined && !isCluster(folder) && isCluster(template)) {
    await copyTree(template, folder, (name) => name !== "PG_VERSION");
    // Last: a copy cut short leaves no PG_VERSION, so the next start copies again instead of opening half a cluster.
    await copyFile(path.join(template, "PG_VERSION"), path.join(folder, "PG_VERSION"));
  }
  return (await startPGlite(folder)).db;
}

/**
 * Copies the files under `from` that `keep` accepts (by name) into `to`, every file at once: fs.cp copies
 * one file after another and took ~550 ms for a template's thousand files, this ~100 ms
 * (docs/decisions/0026-compiled-runtime.md).
 */
async function copyTree(from: string, to: string, keep: (name: string) => boolean = () => true): Promise<void> {
  await mkdir(to, { recursive: true, mode: 0o700 });
  const entries = await readdir(from, { withFileTypes: true });
  await Promise.all(
    entries
      .filter((entry) => keep(entry.name))
      .map((entry) =>
        entry.isDirectory() ? copyTree(path.join(from, entry.name), path.join(to, entry.name)) : copyFile(path.join(from, entry.name), path.join(to, entry.name)),
      ),
  );
}

/** A PGlite in `folder` (a data folder, created if new, or "memory://"), as a Database. */
export async function startPGlite(folder: string) {
  // Loaded only in the embedded mode: PGlite's module alone is tens of MB a PostgreSQL-backed service never needs.
  const [{ PGlite }, { PrismaPGlite }] = await Promise.all([import("@electric-sql/pglite"), import("pglite-prisma-adapter")]);
  const pglite = await PGlite.create(folder, {
    // PostgreSQL's default 128 MB of shared buffers is touched at start, in each service's own PGlite: each
    // held ~180 MB before its first request, ~30 MB with 8 MB of buffers, ~6 MB less again with 2 MB; a page
    // that does not fit is read from the OS's page cache, which holds the folder anyway.
    // PGlite runs one backend, yet sizes its shared memory (lock table, process slots) for 100 connections:
    // 8 of them left five PGlites ~40 MB lighter (docs/decisions/0026-compiled-runtime.md).
    startParams: [...PGlite.defaultStartParams, "-c", "shared_buffers=2MB", "-c", "max_connections=8"],
    // Read by initdb only (a folder made before keeps its size, recorded in pg_control): 1 MB WAL segments
    // instead of 16 make a template 29 MB instead of 39, a quarter less for each first start to copy (same ADR).
    initDbStartParams: ["--wal-segsize=1"],
  });
  const db: Database = {
    kind: "pglite",
    adapter: new PrismaPGlite(pglite),
    query: <R>(statement: Sql) => tracedQuery(statement, async () => (await pglite.query<R>(statement.text, statement.values)).rows),
    close: () => pglite.close(),
  };
  // One process owns a PGlite folder, so an in-process queue is all the mutual exclusion needed.
  const factory = scriptSafeFactory(db.adapter, (script) => pglite.exec(script));
  let queue: Promise<unknown> = Promise.resolve();
  // PGlite has one session, in which advisory locks are re-entrant and exclude nothing; one process owns the
  // folder, so the names held in this process are every holder there is.
  const held = new Set<string>();
  internals.set(db, {
    outbox: { query: async <R>(text: string, params?: unknown[]) => (await pglite.query<R>(text, params)).rows },
    appliedMigrations: () => appliedNames(() => pglite.query<{ migration_name: string }>(APPLIED)),
    exclusively: async (name, fn) => {
      if (held.has(name)) return null;
      held.add(name);
      try {
        return { value: await fn() };
      } finally {
        held.delete(name);
      }
    },
    migrationSession: <T>(fn: (f: SqlMigrationAwareDriverAdapterFactory) => Promise<T>) => {
      const run = queue.then(() => fn(factory));
      queue = run.catch(() => {});
      return run;
    },
  });
  return { pglite, db };
}
