// The services that share the embedded process's one PGlite, and the template that seeds it
// (docs/decisions/0041-one-pglite-for-the-embedded-process.md).
import { fileURLToPath } from "node:url";
import { bodyMetricsDatabase } from "@fit/body-metrics";
import { coachDatabase } from "@fit/coach";
import { gatewayDatabase } from "@fit/gateway";
import { nutritionDatabase } from "@fit/nutrition";
import { openEmbeddedPGlite } from "@fit/service-kit";
import { workoutsDatabase } from "@fit/workouts";
import { insightsDatabase } from "@fit/insights";
import { importsDatabase } from "@fit/imports";

export const embeddedDatabases = [gatewayDatabase, bodyMetricsDatabase, nutritionDatabase, workoutsDatabase, coachDatabase, insightsDatabase, importsDatabase];

/** Written by the launcher's build (write-pglite-template.ts): every service's migrations, each in its schema. */
export const sharedPgliteTemplate = fileURLToPath(new URL("../dist/pglite-template/", import.meta.url));

/** The PGlite every embedded service shares under `dataDir`, or undefined for a DATA_DIR of a folder per service. */
export const openEmbeddedDatabases = (dataDir: string) =>
  openEmbeddedPGlite(
    dataDir,
    embeddedDatabases.map((database) => database.name),
    sharedPgliteTemplate,
  );
