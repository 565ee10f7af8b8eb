import { join } from "node:path";
import { allEvents, busAccess, streamEventsOf, type BusUser } from "@fit/contracts";
import { createBus, startOutboxRelay, type Bus } from "@fit/bus";
import { createIdempotencyKeys, migrate, openDatabase, pgliteTemplatePath, servicePrisma, type Database, type OutboxSource, type SharedPGlite } from "@fit/db";
import { createHttpApp, createServiceApp, type HttpApp } from "./app.ts";
import { natsCredentials, type BaseConfig } from "./config.ts";
import { loggerOptions } from "./logger.ts";
import { watchOutbox } from "./metrics.ts";
import { startIdempotencyKeyPruning, startOutboxPruning } from "./outbox-pruning.ts";

/** What a service's store offers the runtime: its outbox (if it publishes events), a readiness probe, and closing. */
export interface ServiceStore {
  outbox?: OutboxSource;
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

/** Where a service keeps its data: its PostgreSQL schema (a PGlite of its own keeps `public`) and Prisma folder. */
export interface ServiceDatabase {
  name: string;
  schema: string;
  /** Folder holding schema.prisma and migrations/. */
  prismaDir: string;
  /**
   * Loads reference data the service ships (nutrition's food database) once the migrations are applied: at every
   * start, and into the PGlite templates at build time. Must do nothing when the data is already there.
   */
  loadData?: (db: Database) => Promise<unknown>;
}

export interface ServiceDefinition<S extends ServiceStore> extends ServiceDatabase {
  /**
   * Its schema has the `idempotency_key` table: its creating routes take an Idempotency-Key, and expired keys
   * are pruned hourly (docs/decisions/0062-idempotency-keys.md).
   */
  idempotencyKeys?: true;
  createStore(db: Database): S;
  /**
   * The public edge (the gateway) authenticates callers itself: no assertion check, and X-Forwarded-For is
   * believed from `trustProxy` only. Every other service accepts only the gateway's assertion.
   */
  edge?: { trustProxy: string | undefined };
  /** Registers routes, bus handlers and subscriptions; returns what must stop when the service closes. */
  register(context: ServiceContext<S>): Promise<Stoppable[]>;
}

/** What a service is built with: its config, and in one process with others the bus and PGlite they share. */
export interface ServiceDependencies<C extends BaseConfig = BaseConfig> {
  config: C;
  bus?: Bus | undefined;
  /** The embedded process's one PGlite (docs/decisions/0041-one-pglite-for-the-embedded-process.md); else `DATA_DIR/<name>`. */
  pglite?: SharedPGlite | undefined;
}

/** Opens a service's database and brings its schema up to date: at start, and for an operator's CLI. */
export const openServiceDatabase = async (
  definition: ServiceDatabase,
  config: Pick<BaseConfig, "DATABASE_URL" | "DATA_DIR">,
  poolSize: number,
  pglite?: SharedPGlite,
) => {
  const db = await openDatabase({
    url: config.DATABASE_URL,
    schema: definition.schema,
    dataDir: join(config.DATA_DIR, definition.name),
    template: pgliteTemplatePath(definition.prismaDir),
    poolSize,
    pglite,
  });
  try {
    await migrate(db, servicePrisma(definition.prismaDir));
    await definition.loadData?.(db);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
};

/**
 * Builds a service the one way every service is built, the gateway included: database opened and migrated, the
 * HTTP app (behind the gateway's assertion, or the edge) with readiness on database and bus, the bus (shared in
 * one process, or its own), the outbox relay and pruning when the store has an outbox, and an orderly close. Never listens.
 */
export const buildService = async <S extends ServiceStore>(
  definition: ServiceDefinition<S>,
  { config, bus: sharedBus, pglite }: ServiceDependencies,
) => {
  const db = await openServiceDatabase(definition, config, config.DATABASE_POOL_SIZE, pglite);
  const store = definition.createStore(db);
  const http = {
    name: definition.name,
    logger: loggerOptions(definition.name, config.LOG_LEVEL),
    deadlines: { requestMs: config.REQUEST_TIMEOUT_MS, uploadIdleMs: config.UPLOAD_IDLE_TIMEOUT_MS },
    readiness: async () => {
      await store.ping();
      await bus.ping();
    },
  };
  const app = definition.edge
    ? createHttpApp({ ...http, trustProxy: definition.edge.trustProxy })
    : createServiceApp({ ...http, assertionSecret: config.INTERNAL_ASSERTION_SECRET });
  // A service ensures only the streams it publishes to or consumes from: its NATS user may touch no others.
  const streams = Object.hasOwn(busAccess, definition.name) ? streamEventsOf(definition.name as BusUser) : allEvents;
  const bus =
    sharedBus ??
    (await createBus({
      natsUrl: config.NATS_URL,
      namespace: config.NATS_NAMESPACE,
      name: definition.name,
      logger: app.log,
      streams,
      credentials: natsCredentials(config, definition.name),
    }));
  // Rows a previous run left wait an idle poll, unless a write kicks the relay first: the first claim is not part of
  // the start (docs/performance.md, "Embedded start").
  const relay = store.outbox ? startOutboxRelay({ bus, source: store.outbox, logger: app.log, startIdle: true }) : { kick() {}, stop: async () => {} };
  const pruning = store.outbox ? startOutboxPruning(store.outbox, config.OUTBOX_RETENTION_HOURS * 3_600_000, app.log) : undefined;
  const unwatchOutbox = store.outbox ? watchOutbox(definition.name, store.outbox) : undefined;
  const keys = definition.idempotencyKeys ? createIdempotencyKeys(db) : undefined;
  if (keys) app.decorate("idempotencyKeys", keys);
  const keyPruning = keys ? startIdempotencyKeyPruning(keys, app.log) : undefined;
  const stoppables = await definition.register({ app, store, bus, relay });

  app.addHook("onClose", async () => {
    await Promise.all(stoppables.map((s) => s.stop()));
    unwatchOutbox?.();
    await relay.stop();
    await pruning?.stop();
    await keyPruning?.stop();
    if (!sharedBus) await bus.close();
    await store.close();
    await db.close();
  });
  return app;
};
