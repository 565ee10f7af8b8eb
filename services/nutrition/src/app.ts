import { fileURLToPath } from "node:url";
import { createOcrPool } from "@fit/photos";
import { buildService, serveAccountData, type ServiceDatabase, type ServiceDependencies } from "@fit/service-kit";
import type { NutritionConfig } from "./config.ts";
import { subscribeNutritionEvents } from "./handlers/events.ts";
import { serveItemImport } from "./handlers/imports.ts";
import { serveNutritionQueries } from "./handlers/queries.ts";
import { startReconciliation } from "./handlers/reconcile.ts";
import { createFoodFinder } from "./lookup/food-finder.ts";
import { describeRoutes } from "./routes/describe.ts";
import { photoRoute } from "./routes/photo.ts";
import { foodRoutes } from "./routes/foods.ts";
import { itemRoutes } from "./routes/items.ts";
import { ownFoodRoutes } from "./routes/own-foods.ts";
import { totalRoutes } from "./routes/totals.ts";
import { loadFoods } from "./store/load-foods.ts";
import { createStore } from "./store/store.ts";

const SERVICE = "nutrition";

/** Its PostgreSQL schema, Prisma folder and food database, for the launcher's shared PGlite template as well. */
export const nutritionDatabase: ServiceDatabase = {
  name: SERVICE,
  schema: "nutrition",
  prismaDir: fileURLToPath(new URL("../prisma/", import.meta.url)),
  loadData: loadFoods,
};

/** Builds the nutrition service (items, the daily-total projection, its bus handlers); never listens. */
export const buildNutrition = ({ config, ...shared }: ServiceDependencies<NutritionConfig>) =>
  buildService(
    {
      ...nutritionDatabase,
      createStore,
      idempotencyKeys: true,
      register: async (context) => {
        const foods = createFoodFinder(context.store, config);
        itemRoutes(context, foods);
        foodRoutes(context, foods);
        ownFoodRoutes(context, foods);
        describeRoutes(context, { coachTimeoutMs: config.COACH_TIMEOUT_MS });
        totalRoutes(context);
        const ocr = createOcrPool({ threads: config.PHOTO_THREADS, queue: config.PHOTO_QUEUE });
        photoRoute(context, ocr, { coachTimeoutMs: config.COACH_TIMEOUT_MS });
        return [
          { stop: ocr.close },
          ...serveNutritionQueries(context.bus, context.store),
          ...serveItemImport(context),
          ...(await subscribeNutritionEvents(context.bus, context.store)),
          ...(await serveAccountData(context.bus, SERVICE, context.store.accountData)),
          startReconciliation(context.store, { intervalMs: config.RECONCILE_INTERVAL_MS, windowDays: config.RECONCILE_WINDOW_DAYS }, context.app.log),
        ];
      },
    },
    { config, ...shared },
  );
