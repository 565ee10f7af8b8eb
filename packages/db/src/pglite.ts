// The embedded engine: PGlite (PostgreSQL in WASM) on disk. A service alone owns a folder; the all-in-one process
// shares one PGlite between its services, a schema each, as they share one PostgreSQL database
// (docs/decisions/0041-one-pglite-for-the-embedded-process.md).
import { existsSync } from "node:fs";
import { chmod, copyFile, mkdir, readdir } from "node:fs/promises";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import type { Sql } from "@prisma/client/runtime/client";
import { APPLIED, appliedNames, withInternals, type Database } from "./database.ts";
import { applyMigrations } from "./engine.ts";
import { scriptSafeFactory } from "./migration-adapter.ts";
import { pgliteExtensions } from "./pglite-extensions.ts";
import { tracedQuery } from "./traced-query.ts";

/** What PrismaPGlite and a Database use of a PGlite (checked in the adapter's source): one instance, or a schema's view of a shared one. */
type PGliteClient = Pick<PGlite, "query" | "exec" | "transaction">;

/** A PGlite shared by the services of one process, each in a schema of its own. */
export interface SharedPGlite {
  /** The database of `schema` (created if missing): its tables, raw SQL and migrations all live there. */
  database(schema: string): Promise<Database>;
  /** Closes the instance; the databases it handed out are closed with it. */
  close(): Promise<void>;
}

/**
 * Opens the PGlite in `dataDir` ("memory://" for a throwaway one), a copy of `template` when the folder holds
 * no cluster yet, for one owner.
 */
export async function openPGlite(dataDir: string, template: string | undefined): Promise<Database> {
  const pglite = await createPGlite(await prepareFolder(dataDir, template));
  return pgliteDatabase(pglite, () => pglite.close());
}

/** The same folder rules as openPGlite, one instance for the schemas `database()` hands out. */
export async function openSharedPGlite(dataDir: string, template?: string): Promise<SharedPGlite> {
  const pglite = await createPGlite(await prepareFolder(dataDir, template));
  const turn = schemaTurns(pglite);
  return {
    database: async (schema) => {
      if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`schema "${schema}" must match [a-z_][a-z0-9_]*`);
      const view: PGliteClient = {
        query: (text, params, options) => turn(schema, () => pglite.query(text, params, options)),
        exec: (text, options) => turn(schema, () => pglite.exec(text, options)),
        transaction: (fn) => turn(schema, () => pglite.transaction(fn)),
      };
      await view.exec(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      return pgliteDatabase(view, async () => {}, schema);
    },
    close: () => pglite.close(),
  };
}

/** Starts a PGlite in `folder` (a data folder, created if new, or "memory://"). */
async function createPGlite(folder: string): Promise<PGlite> {
  // Loaded only in the embedded mode: PGlite's module alone is tens of MB a PostgreSQL-backed service never needs.
  const { PGlite } = await import("@electric-sql/pglite");
  return PGlite.create(folder, {
    extensions: await pgliteExtensions(),
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
}

/**
 * PGlite has one session. Its schema's statements, scripts and transactions run in turn (the instance's own
 * lock would order them too, but the path must be set in the same turn), with search_path switched only when
 * the turn passes to another schema: a transaction's statements all run inside its turn, so none sees
 * another schema's path, and a service alone on the instance never pays for the switch.
 */
function schemaTurns(pglite: PGlite) {
  const inTurn = turns();
  let current: string | undefined;
  return <T>(schema: string, fn: () => Promise<T>): Promise<T> =>
    inTurn(async () => {
      if (current !== schema) {
        await pglite.exec(`SET search_path TO "${schema}"`);
        current = schema;
      }
      return fn();
    });
}

/** Runs each function given after the ones given before it have settled, whether they succeeded or not. */
function turns() {
  let queue: Promise<unknown> = Promise.resolve();
  return <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(fn);
    queue = run.catch(() => {});
    return run;
  };
}

async function prepareFolder(dataDir: string, template: string | undefined): Promise<string> {
  if (dataDir.startsWith("memory://")) return dataDir;
  const folder = path.resolve(dataDir);
  // Owner-only whatever DATA_DIR's own mode: PGlite writes its files 0666 whatever the umask, so the folder
  // (0700) is what keeps other local users out of the database (docs/security.md#14-secrets-at-rest).
  await mkdir(folder, { recursive: true, mode: 0o700 });
  await chmod(folder, 0o700);
  // initdb alone takes seconds per folder; the template already holds a stopped cluster with the migrations.
  if (template !== undefined && !isPGliteCluster(folder) && isPGliteCluster(template)) {
    await copyTree(template, folder, (name) => name !== "PG_VERSION");
    // Last: a copy cut short leaves no PG_VERSION, so the next start copies again instead of opening half a cluster.
    await copyFile(path.join(template, "PG_VERSION"), path.join(folder, "PG_VERSION"));
  }
  return folder;
}

/** Whether `dir` holds a PGlite data folder (a complete one: PG_VERSION is written last). */
export const isPGliteCluster = (dir: string) => existsSync(path.join(dir, "PG_VERSION"));

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

/**
 * `client` as a Database. `schema` names where Prisma's own queries go (they name their tables' schema,
 * `public` unless the adapter says otherwise); raw SQL and migrations follow the session's search_path.
 */
async function pgliteDatabase(client: PGliteClient, close: () => Promise<void>, schema?: string): Promise<Database> {
  const { PrismaPGlite } = await import("pglite-prisma-adapter");
  // PrismaPGlite reads no schema of its own: its adapter's connection info is where the query compiler looks.
  const stock = new PrismaPGlite(client as PGlite);
  const adapter: SqlMigrationAwareDriverAdapterFactory = schema
    ? {
        provider: stock.provider,
        adapterName: stock.adapterName,
        connect: async () => Object.assign(await stock.connect(), { getConnectionInfo: () => ({ schemaName: schema, supportsRelationJoins: true }) }),
        connectToShadowDb: () => stock.connectToShadowDb(),
      }
    : stock;
  const db: Database = {
    kind: "pglite",
    adapter,
    query: <R>(statement: Sql) => tracedQuery(statement, async () => (await client.query<R>(statement.text, statement.values)).rows),
    close,
  };
  // One process owns a PGlite folder, so an in-process queue is all the mutual exclusion needed.
  const factory = scriptSafeFactory(adapter, (script) => client.exec(script));
  const migrationTurn = turns();
  // PGlite has one session, in which advisory locks are re-entrant and exclude nothing; one process owns the
  // folder, so the names held in this process are every holder there is.
  const held = new Set<string>();
  return withInternals(db, {
    outbox: { query: async <R>(text: string, params?: unknown[]) => (await client.query<R>(text, params)).rows },
    appliedMigrations: () => appliedNames(() => client.query<{ migration_name: string }>(APPLIED)),
    exclusively: async (name, fn) => {
      if (held.has(name)) return null;
      held.add(name);
      try {
        return { value: await fn() };
      } finally {
        held.delete(name);
      }
    },
    applyMigrations: (service) => migrationTurn(() => applyMigrations(factory, service)),
  });
}
