// Migrations on PostgreSQL: the session the schema engine runs in, and the thread it runs on.
import { fileURLToPath } from "node:url";
import { PrismaPg } from "@prisma/adapter-pg";
import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import pg from "pg";
import type { ServicePrisma } from "./migrate.ts";
import { scriptSafeFactory } from "./migration-adapter.ts";
import { runOnThread } from "./threads.ts";

/** What the migration thread is given: plain data, as a thread takes it. */
export interface MigrationThreadData {
  /** The service's connection settings (URL, options), without a pool's functions. */
  connection: pg.PoolConfig;
  schema: string;
  service: ServicePrisma;
}

// The build compiles the thread's entry beside the bundle and points this URL at it (scripts/build.mjs).
const entry = fileURLToPath(new URL("./migrate-worker.ts", import.meta.url));

/**
 * Applies the pending migrations on a thread of their own, which ends with them: the schema engine's WASM module,
 * its memory and what the engine allocated go with the thread instead of staying in the service for the rest of its
 * life (~7 MB of RSS per service after a start that migrated; docs/performance.md, "Migrations on a thread").
 */
export const applyOnThread = (data: MigrationThreadData) => runOnThread<MigrationThreadData, string[]>(entry, data);

/**
 * Migrations get connections of their own, closed afterwards, because the engine takes the global advisory
 * lock 72707369 and never releases it: on the shared pool that lock would stay with an idle connection and
 * stall every other service migrating in the same database. Before the engine starts, a lock keyed on the
 * schema makes replicas of one service wait for each other (no timeout, unlike the engine's 10 s).
 */
export async function postgresMigrationSession<T>(
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

