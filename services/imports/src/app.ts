import { fileURLToPath } from "node:url";
import { buildService, pruneHourly, serveAccountData, type ServiceDatabase, type ServiceDependencies } from "@fit/service-kit";
import type { ImportsConfig } from "./config.ts";
import { startImportWorker } from "./handlers/worker.ts";
import { importRoutes } from "./routes/imports.ts";
import { createStore } from "./store/store.ts";

const SERVICE = "imports";

/** Its PostgreSQL schema and Prisma folder, for the launcher's shared PGlite template as well. */
export const importsDatabase: ServiceDatabase = {
  name: SERVICE,
  schema: "imports",
  prismaDir: fileURLToPath(new URL("../prisma/", import.meta.url)),
};

/**
 * Builds the imports service (files uploaded and kept in its database, read in steps from a work queue, rows
 * written through the services that own them: docs/decisions/0076-imports-as-background-jobs.md); never listens.
 */
export const buildImports = ({ config, ...shared }: ServiceDependencies<ImportsConfig>) =>
  buildService(
    {
      ...importsDatabase,
      createStore,
      register: async (context) => {
        importRoutes(context);
        return [
          await startImportWorker(context, { batchRows: config.IMPORT_BATCH_ROWS, ackWaitMs: config.IMPORT_STEP_ACK_WAIT_MS }),
          ...(await serveAccountData(context.bus, SERVICE, context.store.accountData)),
          // At once, not a minute after start like the other prunes: an abandoned upload holds its 1 MiB chunks, and a
          // replica started after one died takes them back without waiting.
          pruneHourly(() => context.store.pruneAbandonedUploads(config.IMPORT_UPLOAD_IDLE_MS), "abandoned uploads", context.app.log, { firstAfterMs: 0 }),
        ];
      },
    },
    { config, ...shared },
  );
