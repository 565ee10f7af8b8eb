// PGlite templates: a data folder as its first start would leave it, made at build time, so the embedded
// default's first start copies a folder instead of running initdb and the migrations (seconds each).
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import type { Database } from "./database.ts";
import { migrate, type ServicePrisma } from "./migrate.ts";
import { openPGlite, openSharedPGlite } from "./pglite.ts";

/** Where a service's build leaves its template: `<service>/dist/`, beside its prisma/ folder. */
export const pgliteTemplatePath = (prismaDir: string) => path.join(prismaDir, "..", "dist", "pglite-template");

/** Makes `dir` a PGlite data folder with the service's migrations applied, stopped; returns their names. */
export async function writePgliteTemplate(service: ServicePrisma, dir: string): Promise<string[]> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(path.dirname(dir), { recursive: true });
  const db = await openPGlite(dir, undefined);
  try {
    return (await migrate(db, service)).applied;
  } finally {
    await db.close();
  }
}

/**
 * The shared PGlite's template (openSharedPGlite): every service's migrations applied and its data loaded, each
 * in its schema, stopped. Returns the migrations applied, by schema.
 */
export async function writeSharedPgliteTemplate(
  services: (ServicePrisma & { schema: string; loadData?: ((db: Database) => Promise<unknown>) | undefined })[],
  dir: string,
): Promise<Record<string, string[]>> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(path.dirname(dir), { recursive: true });
  const shared = await openSharedPGlite(dir);
  try {
    const applied: Record<string, string[]> = {};
    for (const service of services) {
      const db = await shared.database(service.schema);
      applied[service.schema] = (await migrate(db, service)).applied;
      await service.loadData?.(db);
    }
    return applied;
  } finally {
    await shared.close();
  }
}
