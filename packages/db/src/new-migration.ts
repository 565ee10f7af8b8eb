// Writes the next migration of a service: the SQL that takes its migrations folder to its schema.prisma.
import { readFile } from "node:fs/promises";
import { noFilters, withEngine } from "./engine.ts";
import { readMigrations, slug, writeMigration } from "./migrations-dir.ts";
import { shadowFactory } from "./migration-adapter.ts";
import type { ServicePrisma } from "./migrate.ts";

/** Returns the new migration folder, or null when the schema already matches the migrations. */
export async function newMigration(service: ServicePrisma, name: string, now = new Date()): Promise<string | null> {
  slug(name); // a bad name fails before the seconds-long diff
  const schema = { path: service.schemaPath, content: await readFile(service.schemaPath, "utf8") };
  const migrations = await readMigrations(service.migrationsDir);
  // The engine replays the folder into a shadow database (an in-memory PGlite) and diffs that with the schema.
  const from = migrations.migrationDirectories.length ? { tag: "migrations" as const, ...migrations } : { tag: "empty" as const };
  const memory = shadowFactory();
  const out = await withEngine(memory.factory, schema, (engine) =>
    engine.diff({ from, to: { tag: "schemaDatamodel", files: [schema] }, script: true, exitCode: true, filters: noFilters }),
  ).finally(() => memory.close());
  if (out.exitCode === 0 || !out.stdout) return null; // with exitCode: true the engine answers 2 for a non-empty diff
  return writeMigration(service.migrationsDir, name, dropPublicSchema(out.stdout), now);
}

// Diffing from empty opens with CREATE SCHEMA "public". Services live in their own schema (search_path), and
// that statement demands the CREATE right on the database even when public exists, so leave it out.
function dropPublicSchema(sql: string): string {
  return sql.replace(/^-- CreateSchema\nCREATE SCHEMA IF NOT EXISTS "public";\n\n?/m, "");
}
