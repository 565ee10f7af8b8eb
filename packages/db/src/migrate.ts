// Applies a service's committed migrations, as `prisma migrate deploy` would, through the WASM engine.
import path from "node:path";
import { readMigrations } from "./migrations-dir.ts";
import { internalsOf, type Database } from "./database.ts";

/** A service's prisma/ folder as migrate() reads it. */
export const servicePrisma = (prismaDir: string): ServicePrisma => ({
  schemaPath: path.join(prismaDir, "schema.prisma"),
  migrationsDir: path.join(prismaDir, "migrations"),
});

export interface ServicePrisma {
  /** The service's prisma/schema.prisma (the engine wants its datasource block). */
  schemaPath: string;
  /** The service's prisma/migrations folder. */
  migrationsDir: string;
}

/**
 * Applies the migrations not yet recorded in `_prisma_migrations`, oldest first; returns their names.
 * Replicas starting together queue on a lock, and the later ones find nothing left to apply.
 */
export async function migrate(db: Database, service: ServicePrisma): Promise<{ applied: string[] }> {
  const migrationsList = await readMigrations(service.migrationsDir);
  if (migrationsList.migrationDirectories.length === 0) return { applied: [] };
  // The usual start finds everything applied: say so without loading the engine, whose WASM module costs
  // ~30 MB of memory for as long as the thread that loads it lives (the process's own, on PGlite).
  const internals = internalsOf(db);
  const applied = await internals.appliedMigrations();
  if (migrationsList.migrationDirectories.every((dir) => applied.has(dir.path))) return { applied: [] };
  return { applied: await internals.applyMigrations(service) };
}
