import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { allEvents } from "@fit/contracts";
import { createBus, startOutboxRelay, type Bus } from "@fit/bus";
import { migrate, openDatabase } from "@fit/db";
import { createServiceApp, loggerOptions } from "@fit/service-kit";
import type { BodyMetricsConfig } from "./config.ts";
import { serveBodyMetricsQueries } from "./handlers/queries.ts";
import { measurementRoutes } from "./routes/measurements.ts";
import { targetRoutes } from "./routes/targets.ts";
import { weightRoutes } from "./routes/weight.ts";
import { createStore } from "./store/store.ts";

export const SERVICE = "body-metrics";
const prismaDir = fileURLToPath(new URL("../prisma/", import.meta.url));

export interface BuildOptions {
  config: BodyMetricsConfig;
  /** A bus shared with other services in the same process; otherwise one is opened from the config. */
  bus?: Bus;
}

/** Builds the body-metrics service (database migrated, bus handlers served, outbox relayed); never listens. */
export const buildBodyMetrics = async ({ config, bus: sharedBus }: BuildOptions) => {
  const db = await openDatabase({
    url: config.DATABASE_URL,
    schema: "body_metrics",
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

  weightRoutes(app, { store, relay });
  measurementRoutes(app, { store, relay });
  targetRoutes(app, { store, relay });
  const responders = serveBodyMetricsQueries(bus, store);

  app.addHook("onClose", async () => {
    await Promise.all(responders.map((r) => r.stop()));
    await relay.stop();
    if (!sharedBus) await bus.close();
    await store.close();
    await db.close();
  });
  return app;
};
