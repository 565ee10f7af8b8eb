import { fileURLToPath } from "node:url";
import { buildService, serveAccountData, type ServiceDatabase, type ServiceDependencies } from "@fit/service-kit";
import type { BodyMetricsConfig } from "./config.ts";
import { serveWeightImport, serveWeightIngest } from "./handlers/ingest.ts";
import { serveBodyMetricsQueries } from "./handlers/queries.ts";
import { measurementRoutes } from "./routes/measurements.ts";
import { targetRoutes } from "./routes/targets.ts";
import { weightRoutes } from "./routes/weight.ts";
import { createStore } from "./store/store.ts";

const SERVICE = "body-metrics";

/** Its PostgreSQL schema and Prisma folder, for the launcher's shared PGlite template as well. */
export const bodyMetricsDatabase: ServiceDatabase = {
  name: SERVICE,
  schema: "body_metrics",
  prismaDir: fileURLToPath(new URL("../prisma/", import.meta.url)),
};

/** Builds the body-metrics service (database migrated, bus handlers served, outbox relayed); never listens. */
export const buildBodyMetrics = ({ config, ...shared }: ServiceDependencies<BodyMetricsConfig>) =>
  buildService(
    {
      ...bodyMetricsDatabase,
      createStore,
      idempotencyKeys: true,
      register: async (context) => {
        weightRoutes(context);
        measurementRoutes(context);
        targetRoutes(context);
        return [
          ...serveBodyMetricsQueries(context.bus, context.store, context.relay),
          serveWeightIngest(context),
          ...serveWeightImport(context),
          ...(await serveAccountData(context.bus, SERVICE, context.store.accountData)),
        ];
      },
    },
    { config, ...shared },
  );
