import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { allEvents } from "@fit/contracts";
import { createBus, startOutboxRelay, type Bus } from "@fit/bus";
import { migrate, openDatabase } from "@fit/db";
import { createServiceApp, loggerOptions } from "@fit/service-kit";
import type { NutritionConfig } from "./config.ts";
import { subscribeNutritionEvents } from "./handlers/events.ts";
import { serveNutritionQueries } from "./handlers/queries.ts";
import { startReconciliation } from "./handlers/reconcile.ts";
import { itemRoutes } from "./routes/items.ts";
import { totalRoutes } from "./routes/totals.ts";
import { createStore } from "./store/store.ts";

export const SERVICE = "nutrition";
const prismaDir = fileURLToPath(new URL("../prisma/", import.meta.url));

export interface BuildOptions {
  config: NutritionConfig;
  /** A bus shared with other services in the same process; otherwise one is opened from the config. */
  bus?: Bus;
}

/** Builds the nutrition service (items, the daily-total projection, its bus handlers); never listens. */
export const buildNutrition = async ({ config, bus: sharedBus }: BuildOptions) => {
  const db = await openDatabase({
    url: config.DATABASE_URL,
    schema: "nutrition",
    dataDir: join(config.DATA_DIR, SERVICE),
    poolSize: config.DATABASE_POOL_SIZE,
  });
  await migrate(db, { schemaPath: join(prismaDir, "schema.prisma"), migrationsDir: join(prismaDir, "migrations") });
  const store = createStore(db);

  const app = createServiceApp({
    name: SERVICE,
    logger: loggerOptions(SERVICE, config.LOG_LEVEL),
    assertionSecret: config.INTERNAL_ASSERTION_SECRET,
    readiness: async () => {
      await store.ping();
      await bus.ping();
    },
  });
  const bus =
    sharedBus ??
    (await createBus({ natsUrl: config.NATS_URL, namespace: config.NATS_NAMESPACE, name: SERVICE, logger: app.log, streams: allEvents }));
  const relay = startOutboxRelay({ bus, source: store.outbox, logger: app.log });
  const reconciliation = startReconciliation(store, config.RECONCILE_INTERVAL_MS, app.log);

  itemRoutes(app, { store, relay });
  totalRoutes(app, { store, relay });
  const responders = serveNutritionQueries(bus, store);
  const subscriptions = await subscribeNutritionEvents(bus, store);

  app.addHook("onClose", async () => {
    reconciliation.stop();
    await Promise.all([...responders, ...subscriptions].map((s) => s.stop()));
    await relay.stop();
    if (!sharedBus) await bus.close();
    await store.close();
    await db.close();
  });
  return app;
};
