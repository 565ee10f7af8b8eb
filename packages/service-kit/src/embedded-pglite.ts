import { join } from "node:path";
import { isPGliteCluster, openSharedPGlite, type SharedPGlite } from "@fit/db";

/** DATA_DIR's folder for the one PGlite the services of the embedded process share. */
const SHARED_FOLDER = "pglite";

/**
 * The PGlite that the services named `services` share under `dataDir` (docs/decisions/0041-one-pglite-for-the-embedded-process.md),
 * or undefined when they keep a folder each: a DATA_DIR written before that layout, or by a service started
 * alone (processes cannot share a PGlite), stays as it is. `template` seeds a new shared folder.
 */
export const openEmbeddedPGlite = async (dataDir: string, services: string[], template?: string): Promise<SharedPGlite | undefined> => {
  const shared = join(dataDir, SHARED_FOLDER);
  if (!isPGliteCluster(shared) && services.some((name) => isPGliteCluster(join(dataDir, name)))) return undefined;
  return openSharedPGlite(shared, template);
};
