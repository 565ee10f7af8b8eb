import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { allEvents } from "@fit/contracts";
import { buildBodyMetrics, loadBodyMetricsConfig } from "@fit/body-metrics";
import { buildCoach, loadCoachConfig } from "@fit/coach";
import { adminSocketPath, buildGateway, loadGatewayConfig, requestAccountKey, type IssueKeyOptions } from "@fit/gateway";
import { buildNutrition, loadNutritionConfig } from "@fit/nutrition";
import { createTestDatabase, deleteNamespaceStreams, freePort, uniqueTag } from "@fit/testing";
import { buildWorkouts, loadWorkoutsConfig } from "@fit/workouts";
import { buildInsights, loadInsightsConfig } from "@fit/insights";
import { buildImports, loadImportsConfig } from "@fit/imports";
// The root package does not list @fit/bus (only the embedded mode needs it here), so it is reached by path, as
// nutrition-accounts.ts reaches the projection model.
import { createBus, type Bus, type Logger } from "@fit/bus";
import type { SharedPGlite } from "@fit/db";
import { openEmbeddedDatabases } from "../../launcher/src/embedded-databases.ts";

/** PostgreSQL + NATS, as in production: each service with its own connection and schema. */
interface ServerOptions {
  databaseUrl: string;
  natsUrl: string;
  embedded?: false;
  env?: Record<string, string>;
}

/** The `pnpm start` default: PGlite under a temporary DATA_DIR and one in-process bus, no DATABASE_URL/NATS_URL. */
interface EmbeddedOptions {
  embedded: true;
  env?: Record<string, string>;
}

/** `port`: where the gateway listens, for a test that must name its address before it starts (default: a free one). */
type SystemOptions = (ServerOptions | EmbeddedOptions) & { port?: number };

const silent: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/** Where the services keep their data, and how it is thrown away afterwards. */
const backing = async (options: SystemOptions, dataDir: string) => {
  if (options.embedded) {
    // Built exactly as launcher/src/all-in-one.ts does: createBus without natsUrl is the in-process bus, and
    // the same instance is handed to every service (a bus of each service's own would link nothing); so is
    // the one PGlite, a schema per service.
    const bus = await createBus({ natsUrl: undefined, name: "all-in-one", logger: silent, streams: allEvents });
    const pglite = await openEmbeddedDatabases(dataDir);
    return {
      env: {},
      bus,
      pglite,
      drop: async () => {
        await bus.close();
        await pglite?.close();
      },
    };
  }
  const { databaseUrl, natsUrl } = options;
  const database = await createTestDatabase(databaseUrl);
  const env = { DATABASE_URL: database.url, NATS_URL: natsUrl, NATS_NAMESPACE: uniqueTag("ns") };
  const drop = async () => {
    await database.drop();
    await deleteNamespaceStreams(natsUrl, env.NATS_NAMESPACE);
  };
  return { env, bus: undefined as Bus | undefined, pglite: undefined as SharedPGlite | undefined, drop };
};

/**
 * The whole platform in this test process, the gateway on real HTTP. By default as it runs in production: each
 * service with its own NATS connection and PostgreSQL schema (in a database of this test file's own), subjects
 * and streams under a namespace of this system's own, so test files can run side by side. With
 * `{ embedded: true }`, as `pnpm start` runs it on a fresh machine (PGlite, one shared in-process bus).
 */
export const startSystem = async (options: SystemOptions) => {
  const dataDir = await mkdtemp(join(tmpdir(), "fit-system-"));
  const storage = await backing(options, dataDir);
  const port = options.port ?? (await freePort());
  const env: Record<string, string> = {
    ...storage.env,
    DATA_DIR: dataDir,
    LOG_LEVEL: "silent",
    INTERNAL_ASSERTION_SECRET: randomBytes(32).toString("hex"),
    BETTER_AUTH_SECRET: randomBytes(32).toString("hex"),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    ...options.env,
  };
  const { bus, pglite } = storage;
  const bodyMetrics = await buildBodyMetrics({ config: loadBodyMetricsConfig(env), bus, pglite });
  const nutrition = await buildNutrition({ config: loadNutritionConfig(env), bus, pglite });
  const workouts = await buildWorkouts({ config: loadWorkoutsConfig(env), bus, pglite });
  const coach = await buildCoach({ config: loadCoachConfig(env), bus, pglite });
  const insights = await buildInsights({ config: loadInsightsConfig(env), bus, pglite });
  const imports = await buildImports({ config: loadImportsConfig(env), bus, pglite });
  // On a port from freePort, not port 0: `inPlace` binds the same port again after a restart, and a port of the
  // kernel's ephemeral range may have gone to an outgoing connection by then (packages/testing/src/ports.ts).
  const listen = async (app: { listen(options: { host: string; port: number }): Promise<string> }) => app.listen({ host: "127.0.0.1", port: await freePort() });
  const services = {
    bodyMetrics: await listen(bodyMetrics),
    nutrition: await listen(nutrition),
    workouts: await listen(workouts),
    coach: await listen(coach),
    insights: await listen(insights),
    imports: await listen(imports),
  };
  const gatewayEnv = { ...env, BODY_METRICS_URL: services.bodyMetrics, NUTRITION_URL: services.nutrition, WORKOUTS_URL: services.workouts, INSIGHTS_URL: services.insights, IMPORTS_URL: services.imports };
  const gateway = await buildGateway({ config: loadGatewayConfig(gatewayEnv), bus, pglite });
  const url = await gateway.listen({ host: "127.0.0.1", port });
  const issueKey = async (email: string, options: IssueKeyOptions = {}) => {
    const issued = await requestAccountKey(adminSocketPath(dataDir), email, options);
    if (!issued) throw new Error("the gateway's admin socket did not answer");
    return issued;
  };
  const replicas: { close(): Promise<unknown>; dataDir: string }[] = [];
  const inPlace: { close(): Promise<unknown> }[] = [];
  const rebuild = {
    insights: () => buildInsights({ config: loadInsightsConfig(env), bus, pglite }),
    imports: () => buildImports({ config: loadImportsConfig(env), bus, pglite }),
  };

  return {
    url,
    env,
    services,
    apps: { gateway, bodyMetrics, nutrition, workouts, coach, insights, imports },
    /** The shared in-process bus of the embedded mode (undefined on NATS: each service has its own connection). */
    bus,
    /** A new account and a key for it (full access unless scopes are given). */
    account: (scopes?: string[]) => issueKey(`${uniqueTag("user")}@example.com`, scopes ? { scopes } : {}),
    /** Another key for an account (created if new), as `pnpm create-key` issues it. */
    key: issueKey,
    /**
     * One more gateway on the same database, bus and secrets, at a public URL of its own: another deployment
     * sharing this one's keys, whose tokens name another audience. Not in embedded mode: PGlite has one user.
     */
    replica: async () => {
      const replicaDir = await mkdtemp(join(tmpdir(), "fit-replica-"));
      const replicaPort = await freePort();
      const app = await buildGateway({
        config: loadGatewayConfig({ ...gatewayEnv, DATA_DIR: replicaDir, PUBLIC_URL: `http://127.0.0.1:${replicaPort}` }),
        bus,
      });
      replicas.push({ close: () => app.close(), dataDir: replicaDir });
      return app.listen({ host: "127.0.0.1", port: replicaPort });
    },
    /**
     * A new instance of a service in this process, on the port the gateway reaches it at: with the system's own
     * closed first, a restart with nothing kept in memory. Closed with the system if the test does not close it.
     */
    inPlace: async (name: keyof typeof rebuild) => {
      const app = await rebuild[name]();
      inPlace.push(app);
      await app.listen({ host: "127.0.0.1", port: Number(new URL(services[name]).port) });
      return app;
    },
    stop: async () => {
      for (const replica of replicas) {
        await replica.close();
        await rm(replica.dataDir, { recursive: true, force: true });
      }
      await gateway.close();
      await Promise.allSettled(inPlace.map((app) => app.close()));
      await Promise.all([bodyMetrics.close(), nutrition.close(), workouts.close(), insights.close(), imports.close(), coach.close()]);
      // A shared bus (and PGlite) is closed by whoever created it (packages/bus/src/create-bus.ts): here, after its users.
      await storage.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
};

export type System = Awaited<ReturnType<typeof startSystem>>;
