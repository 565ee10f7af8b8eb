import { fileURLToPath } from "node:url";
import { buildService, serveAccountData, type ServiceDatabase, type ServiceDependencies } from "@fit/service-kit";
import type { InsightsConfig } from "./config.ts";
import { subscribeInsightsEvents } from "./handlers/events.ts";
import { serveInsightsQueries } from "./handlers/read-insights.ts";
import { startReconciliation } from "./handlers/reconcile.ts";
import { insightsRoutes } from "./routes/insights.ts";
import { profileRoutes } from "./routes/profile.ts";
import { createStore } from "./store/store.ts";

const SERVICE = "insights";

/** Its PostgreSQL schema and Prisma folder, for the launcher's shared PGlite template as well. */
export const insightsDatabase: ServiceDatabase = {
  name: SERVICE,
  schema: "insights",
  prismaDir: fileURLToPath(new URL("../prisma/", import.meta.url)),
};

/** Builds the insights service (the profile, and trend, rate and expenditure from a read model of events); never listens. */
export const buildInsights = ({ config, ...shared }: ServiceDependencies<InsightsConfig>) =>
  buildService(
    {
      ...insightsDatabase,
      createStore,
      register: async (context) => {
        profileRoutes(context);
        insightsRoutes(context);
        return [
          ...serveInsightsQueries(context.bus, context.store),
          ...(await subscribeInsightsEvents(context.bus, context.store)),
          ...(await serveAccountData(context.bus, SERVICE, context.store.accountData)),
          startReconciliation(
            context.bus,
            context.store,
            { intervalMs: config.RECONCILE_INTERVAL_MS, windowDays: config.INSIGHTS_RECONCILE_WINDOW_DAYS },
            context.app.log,
          ),
        ];
      },
    },
    { config, ...shared },
  );
