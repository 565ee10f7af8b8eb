import { fileURLToPath } from "node:url";
import type { Bus } from "@fit/bus";
import { buildService, serveAccountData } from "@fit/service-kit";
import type { BodyMetricsConfig } from "./config.ts";
import { serveWeightIngest } from "./handlers/ingest.ts";
import { serveBodyMetricsQueries } from "./handlers/queries.ts";
import { measurementRoutes } from "./routes/measurements.ts";
import { targetRoutes } from "./routes/targets.ts";
import { weightRoutes } from "./routes/weight.ts";
import { createStore } from "./store/store.ts";

const SERVICE = "body-metrics";

/** Builds the body-metrics service (database migrated, bus handlers served, outbox relayed); never listens. */
export const buildBodyMetrics = ({ config, bus }: { config: BodyMetricsConfig; bus?: Bus }) =>
  buildService(
    {
      name: SERVICE,
      schema: "body_metrics",
      prismaDir: fileURLToPath(new URL("../prisma/", import.meta.url)),
      createStore,
      register: async (context) => {
        weightRoutes(context);
        measurementRoutes(context);
        targetRoutes(context);
        return [
          ...serveBodyMetricsQueries(context.bus, context.store),
          serveWeightIngest(context),
          ...(await serveAccountData(context.bus, SERVICE, context.store.accountData)),
        ];
      },
    },
    { config, bus },
  );
