import { join } from "node:path";
import { allEvents } from "@fit/contracts";
import { createBus, startOutboxRelay, type Bus, type OutboxSource } from "@fit/bus";
import { migrate, openDatabase, type Database } from "@fit/db";
import { createServiceApp, type HttpApp } from "./app.ts";
import type { BaseConfig } from "./config.ts";
import { loggerOptions } from "./logger.ts";

/** What a service's store offers the runtime: its outbox, a readiness probe, and closing. */
export interface ServiceStore {
  outbox: OutboxSource;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface Stoppable {
  stop(): Promise<void>;
}

export interface ServiceContext<S extends ServiceStore> {
  app: HttpApp;
  store: S;
  bus: Bus;
  /** Lets the outbox relay publish a just-committed event now instead of at its next poll. */
  relay: { kick(): void };
}

export interface ServiceDefinition<S extends ServiceStore> {
  name: string;
  /** PostgreSQL schema of the service (PGlite keeps `public`). */
  schema: string;
  /** Folder holding schema.prisma and migrations/. */
  prismaDir: string;
  createStore(db: Database): S;
  /** Registers routes, bus handlers and subscriptions; returns what must stop when the service closes. */
  register(context: ServiceContext<S>): Promise<Stoppable[]>;
}

/**
 * Builds a service the one way every service is built: database opened and migrated, the HTTP app behind the
 * gateway's assertion with readiness on database and bus, the bus (shared in one process, or its own), the
 * outbox relay, and an orderly close. Never listens.
 */
export const buildService = async <S extends ServiceStore>(
  definition: ServiceDefinition<S>,
  { config, bus: sharedBus }: { config: BaseConfig; bus?: Bus | undefined },
) => {
  const db = await openDatabase({
    url: config.DATABASE_URL,
    schema: definition.schema,
    dataDir: join(config.DATA_DIR, definition.name),
    poolSize: config.DATABASE_POOL_SIZE,
  });
  await migrate(db, {
    schemaPath: join(definition.prismaDir, "schema.prisma"),
    migrationsDir: join(definition.prismaDir, "migrations"),
  });
  const store = definition.createStore(db);
  const app = createServiceApp({
    name: definition.name,
    logger: loggerOptions(definition.name, config.LOG_LEVEL),
    assertionSecret: config.INTERNAL_ASSERTION_SECRET,
    readiness: async () => {
      await store.ping();
      await bus.ping();
    },
  });
  const bus =
    sharedBus ??
    (await createBus({ natsUrl: config.NATS_URL, namespace: config.NATS_NAMESPACE, name: definition.name, logger: app.log, streams: allEvents }));
  const relay = startOutboxRelay({ bus, source: store.outbox, logger: app.log });
  const stoppables = await definition.register({ app, store, bus, relay });

  app.addHook("onClose", async () => {
    await Promise.all(stoppables.map((s) => s.stop()));
    await relay.stop();
    if (!sharedBus) await bus.close();
    await store.close();
    await db.close();
  });
  return app;
};
