// The PGlite template: a service's data folder as its first start would leave it, made at build time, so the
// embedded default's first start copies a file instead of running initdb and the migrations (seconds each).
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { migrate, type ServicePrisma } from "./migrate.ts";
import { startPGlite } from "./open.ts";

/** Where a service's build leaves its template: `<service>/dist/`, beside its prisma/ folder. */
export const pgliteTemplatePath = (prismaDir: string) => path.join(prismaDir, "..", "dist", "pglite-template.tar.gz");

/** Writes the service's template: an in-memory PGlite with its migrations applied, dumped gzipped. */
export async function writePgliteTemplate(service: ServicePrisma, file: string): Promise<string[]> {
  const { pglite, db } = await startPGlite("memory://");
  try {
    const { applied } = await migrate(db, service);
    const dump = await pglite.dumpDataDir("gzip");
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, new Uint8Array(await dump.arrayBuffer()));
    return applied;
  } finally {
    await db.close();
  }
}
