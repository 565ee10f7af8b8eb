// What every database of @fit/db is, whichever engine is under it: the surface a store sees, and the internals
// that migrate(), the outbox relay and runExclusively reach through internalsOf().
import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import type { Sql } from "@prisma/client/runtime/client";
import type { ServicePrisma } from "./migrate.ts";

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
   * Applies the service's pending migrations while no other migrate() of the same schema runs (in any process, for
   * PostgreSQL); returns their names.
   */
  applyMigrations(service: ServicePrisma): Promise<string[]>;
  /** Names recorded as finished in _prisma_migrations (none when the table does not exist yet). */
  appliedMigrations(): Promise<Set<string>>;
  /** See runExclusively. */
  exclusively<T>(name: string, fn: () => Promise<T>): Promise<{ value: T } | null>;
  /** Where `onOwnThread`'s thread opens a database of its own: PostgreSQL only. */
  threadDatabase?: ThreadDatabase;
}

/** Where a thread opens a database of its own: the service's PostgreSQL and schema. */
export interface ThreadDatabase {
  url: string;
  schema: string;
}

export const APPLIED = "SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL";

export const appliedNames = async (query: () => Promise<{ rows: { migration_name: string }[] }>) => {
  try {
    return new Set((await query()).rows.map((r) => r.migration_name));
  } catch (error) {
    if ((error as { code?: string }).code === "42P01") return new Set<string>(); // no table: nothing applied
    throw error;
  }
};

const internals = new WeakMap<Database, DatabaseInternals>();

/** Records what `db` offers beyond its public surface; returns `db`. */
export function withInternals(db: Database, found: DatabaseInternals): Database {
  internals.set(db, found);
  return db;
}

export function internalsOf(db: Database): DatabaseInternals {
  const found = internals.get(db);
  if (!found) throw new Error("not a Database from openDatabase()");
  return found;
}
