import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { allEvents } from "@fit/contracts";
import { createBus, type Bus } from "@fit/bus";
import { migrate, openDatabase } from "@fit/db";
import { createHttpApp, loggerOptions } from "@fit/service-kit";
import { authorize, identify } from "./auth/authenticate.ts";
import { createOperationIndex } from "./auth/operation-index.ts";
import { installRateLimits } from "./auth/rate-limits.ts";
import type { GatewayConfig } from "./config.ts";
import { createIdentity, createMagicLinkMailer, identityLocations, startAdminSocket } from "./identity/index.ts";
import { authRoutesPlugin } from "./routes/auth.ts";
import { dashboardRoute } from "./routes/dashboard.ts";
import { openApiRoute } from "./routes/openapi.ts";
import { proxyRoutes } from "./routes/proxy.ts";
import { createIdentityStore } from "./store/identity-store.ts";

export const SERVICE = "gateway";
const prismaDir = fileURLToPath(new URL("../prisma/", import.meta.url));
const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };

export interface BuildOptions {
  config: GatewayConfig;
  bus?: Bus;
}

/** The public edge: sign-in, credentials → internal assertion, scope checks, forwarding, the dashboard. */
export const buildGateway = async ({ config, bus: sharedBus }: BuildOptions) => {
  const locations = identityLocations(config.DATA_DIR);
  const db = await openDatabase({
    url: config.DATABASE_URL,
    schema: locations.schema,
    dataDir: locations.pgliteDir,
    poolSize: config.DATABASE_POOL_SIZE,
  });
  await migrate(db, { schemaPath: join(prismaDir, "schema.prisma"), migrationsDir: join(prismaDir, "migrations") });
  const store = createIdentityStore(db);

  const app = createHttpApp({
    name: SERVICE,
    logger: loggerOptions(SERVICE, config.LOG_LEVEL),
    trustProxy: config.TRUST_PROXY,
    readiness: async () => {
      await store.ping();
      await bus.ping();
    },
  });
  const bus = sharedBus ?? (await createBus({ natsUrl: config.NATS_URL, namespace: config.NATS_NAMESPACE, name: SERVICE, logger: app.log, streams: allEvents }));
  const trustedOrigins = [new URL(config.PUBLIC_URL).origin, ...config.TRUSTED_ORIGINS];
  const identity = createIdentity({
    prisma: store.prisma,
    baseUrl: config.PUBLIC_URL,
    secret: config.BETTER_AUTH_SECRET,
    trustedOrigins,
    mailer: createMagicLinkMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, logger: app.log }),
    logger: app.log,
  });

  const limits = await installRateLimits(app, config);
  openApiRoute(app, { version, publicUrl: config.PUBLIC_URL });
  authRoutesPlugin(app, { identity, publicUrl: config.PUBLIC_URL, limits: [limits.signInPerAddress, limits.signInPerEmail] });
  await app.register(async (api) => {
    api.addHook("onRequest", identify({ identity, trustedOrigins }));
    api.addHook("onRequest", limits.perAccount);
    api.addHook("onRequest", authorize({ assertionSecret: config.INTERNAL_ASSERTION_SECRET, findOperation: createOperationIndex() }));
    dashboardRoute(api, { bus, timeoutMs: config.DASHBOARD_TIMEOUT_MS });
    await proxyRoutes(api, { upstreams: { "body-metrics": config.BODY_METRICS_URL, nutrition: config.NUTRITION_URL } });
  });

  const admin = await startAdminSocket({ path: locations.adminSocket, identity, logger: app.log });
  app.addHook("onClose", async () => {
    await admin.close();
    if (!sharedBus) await bus.close();
    await store.close();
    await db.close();
  });
  return app;
};
