import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Bus } from "@fit/bus";
import { AppError } from "@fit/contracts";
import { buildService, type ServiceDatabase } from "@fit/service-kit";
import { authorize, identify } from "./auth/authenticate.ts";
import { installRateLimits } from "./auth/rate-limits.ts";
import type { GatewayConfig } from "./config.ts";
import { adminSocketPath, startAdminSocket } from "./identity/admin-socket.ts";
import { createIdentity } from "./identity/identity.ts";
import { createMagicLinkMailer } from "./identity/mailer.ts";
import { accountRoutes } from "./routes/account.ts";
import { authRoutesPlugin } from "./routes/auth.ts";
import { coachRoutes } from "./routes/coach.ts";
import { dashboardRoute } from "./routes/dashboard.ts";
import { forwardRoutes } from "./routes/forward.ts";
import { openApiRoute } from "./routes/openapi.ts";
import { createIdentityStore } from "./store/identity-store.ts";

const SERVICE = "gateway";
const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };

/** The identity schema: the gateway's own data, opened by the gateway and by the create-key CLI alike. */
export const gatewayDatabase: ServiceDatabase = {
  name: SERVICE,
  schema: "identity",
  prismaDir: fileURLToPath(new URL("../prisma/", import.meta.url)),
};

/** The public edge: sign-in, credentials → internal assertion, scope checks, forwarding, the dashboard. */
export const buildGateway = ({ config, bus }: { config: GatewayConfig; bus?: Bus }) =>
  buildService(
    {
      ...gatewayDatabase,
      createStore: createIdentityStore,
      edge: { trustProxy: config.TRUST_PROXY },
      register: async ({ app, store, bus, relay }) => {
        const trustedOrigins = [new URL(config.PUBLIC_URL).origin, ...config.TRUSTED_ORIGINS];
        const identity = createIdentity({
          store,
          baseUrl: config.PUBLIC_URL,
          secret: config.BETTER_AUTH_SECRET,
          trustedOrigins,
          mailer: createMagicLinkMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, logger: app.log }),
          logger: app.log,
        });
        const limits = await installRateLimits(app, config);
        openApiRoute(app, { version, publicUrl: config.PUBLIC_URL });
        authRoutesPlugin(app, {
          identity,
          publicUrl: config.PUBLIC_URL,
          trustedOrigins,
          limits: [limits.signInPerAddress, limits.signInPerEmail],
        });
        await app.register(async (api) => {
          api.addHook("onRequest", identify({ identity, trustedOrigins, refused: limits.refusedPerAddress }));
          api.addHook("onRequest", limits.perAccount);
          api.addHook("onRequest", authorize({ assertionSecret: config.INTERNAL_ASSERTION_SECRET }));
          dashboardRoute(api, { bus, timeoutMs: config.DASHBOARD_TIMEOUT_MS });
          coachRoutes(api, { bus, timeoutMs: config.COACH_TIMEOUT_MS });
          accountRoutes(api, { store, bus, relay });
          // Any other /api path lands here after authentication and the rate limit: a 404 from authorize, so an
          // unknown-path flood is counted like any other.
          api.all("/api/*", async () => {
            throw new AppError("not_found", "not found");
          });
          await api.register(forwardRoutes, {
            upstreams: { "body-metrics": config.BODY_METRICS_URL, nutrition: config.NUTRITION_URL, workouts: config.WORKOUTS_URL },
          });
        });
        const admin = await startAdminSocket({ path: adminSocketPath(config.DATA_DIR), identity, logger: app.log });
        return [{ stop: () => admin.close() }];
      },
    },
    { config, bus },
  );
