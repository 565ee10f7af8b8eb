import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { AppError } from "@fit/contracts";
import { buildService, type ServiceDatabase, type ServiceDependencies } from "@fit/service-kit";
import { authorize, identify } from "./auth/authenticate.ts";
import { ingestTokenMatcher } from "./auth/ingest-token.ts";
import { installRateLimits } from "./auth/rate-limits.ts";
import type { GatewayConfig } from "./config.ts";
import { adminSocketPath, startAdminSocket } from "./identity/admin-socket.ts";
import { ACCESS_TOKEN_TTL_SECONDS, mcpUrlOf } from "./identity/auth.ts";
import { createCredentialCache } from "./identity/credential-cache.ts";
import { createIdentity } from "./identity/identity.ts";
import { createMagicLinkMailer } from "./identity/mailer.ts";
import { providerIds, reachableProviders } from "./identity/providers.ts";
import { startRevocations } from "./identity/revocations.ts";
import { accountRoutes } from "./routes/account.ts";
import { authRoutesPlugin } from "./routes/auth.ts";
import { coachRoutes } from "./routes/coach.ts";
import { dashboardRoute } from "./routes/dashboard.ts";
import { forwardRoutes } from "./routes/forward.ts";
import { ingestRoute } from "./routes/ingest.ts";
import { connectedAppRoutes } from "./routes/connected-apps.ts";
import { keyRoutes } from "./routes/keys.ts";
import { mcpRoutes } from "./routes/mcp.ts";
import { oauthMetadataRoutes } from "./routes/oauth-metadata.ts";
import { oauthPageRoutes } from "./routes/oauth-pages.ts";
import { openApiRoute } from "./routes/openapi.ts";
import { sessionRoutes } from "./routes/sessions.ts";
import { webAppRoutes } from "./routes/web-app.ts";
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
export const buildGateway = ({ config, ...shared }: ServiceDependencies<GatewayConfig>) =>
  buildService(
    {
      ...gatewayDatabase,
      createStore: createIdentityStore,
      edge: { trustProxy: config.TRUST_PROXY },
      register: async ({ app, store, bus, relay }) => {
        const trustedOrigins = [new URL(config.PUBLIC_URL).origin, ...config.TRUSTED_ORIGINS];
        const cache = createCredentialCache({ maxEntries: config.CREDENTIAL_CACHE_MAX_ENTRIES, ttlMs: config.CREDENTIAL_CACHE_TTL_MS });
        const revocations = await startRevocations({ bus, cache, logger: app.log });
        const identity = createIdentity({
          store,
          baseUrl: config.PUBLIC_URL,
          secret: config.BETTER_AUTH_SECRET,
          trustedOrigins,
          mailer: createMagicLinkMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, logger: app.log }),
          logger: app.log,
          providers: await reachableProviders(config.IDENTITY_PROVIDERS, config.IDENTITY_PROVIDER_TIMEOUT_MS, app.log),
          credentials: { cache, revocations: revocations.revocations },
        });
        const limits = await installRateLimits(app, config, bus);
        const isIngestToken = ingestTokenMatcher(config.INGEST_TOKEN);
        openApiRoute(app, { version, publicUrl: config.PUBLIC_URL });
        const signInLimits = [limits.signInPerAddress, limits.signInPerEmail];
        authRoutesPlugin(app, {
          identity,
          publicUrl: config.PUBLIC_URL,
          trustedOrigins,
          limits: signInLimits,
          registrationLimit: limits.registrationPerAddress,
          exchangeLimit: limits.exchangePerAddress,
          issuedByCode: await bus.keyValue("OAUTH_CODES", { maxAgeMs: ACCESS_TOKEN_TTL_SECONDS * 1000 }),
          providerSignIn: {
            configured: providerIds(config.IDENTITY_PROVIDERS),
            ready: () => identity.readyProviders(),
            timeoutMs: config.IDENTITY_PROVIDER_TIMEOUT_MS,
            limits: [limits.signInPerAddress],
          },
        });
        // Agents: the OAuth discovery documents and pages, and the MCP endpoint (docs/decisions/0022-oauth-for-agents.md).
        const issuer = new URL(config.PUBLIC_URL).origin;
        oauthMetadataRoutes(app, { authorizationServer: () => identity.auth.api.getOAuthServerConfig(), issuer, mcpUrl: mcpUrlOf(config.PUBLIC_URL) });
        await app.register(oauthPageRoutes, { identity, publicUrl: config.PUBLIC_URL, trustedOrigins, limits: signInLimits, consentLimit: limits.exchangePerAddress });
        const authenticate = [identify({ identity, trustedOrigins, refused: limits.refusedPerAddress, isIngestToken }), limits.perAccount];
        await app.register(mcpRoutes, {
          version,
          resourceMetadataUrl: `${issuer}/.well-known/oauth-protected-resource/mcp`,
          trustedOrigins,
          authenticate,
        });
        await app.register(async (api) => {
          for (const hook of authenticate) api.addHook("onRequest", hook);
          api.addHook("onRequest", authorize({ assertionSecret: config.INTERNAL_ASSERTION_SECRET }));
          dashboardRoute(api, { bus, timeoutMs: config.DASHBOARD_TIMEOUT_MS });
          coachRoutes(api, { bus, timeoutMs: config.COACH_TIMEOUT_MS });
          keyRoutes(api, { identity, store });
          sessionRoutes(api, { store, identity });
          connectedAppRoutes(api, { store, identity });
          accountRoutes(api, { store, bus, relay, revoked: identity.revoked });
          // Any other /api path lands here after authentication and the rate limit: a 404 from authorize, so an
          // unknown-path flood is counted like any other.
          api.all("/api/*", async () => {
            throw new AppError("not_found", "not found");
          });
          await api.register(forwardRoutes, {
            upstreams: { "body-metrics": config.BODY_METRICS_URL, nutrition: config.NUTRITION_URL, workouts: config.WORKOUTS_URL, insights: config.INSIGHTS_URL, imports: config.IMPORTS_URL },
          });
        });
        await ingestRoute(app, {
          bus,
          store,
          isIngestToken,
          timeoutMs: config.INGEST_TIMEOUT_MS,
          perAccount: limits.perAccount,
          refused: limits.refusedPerAddress,
        });
        await app.register(webAppRoutes, {
          dir: config.WEB_APP_DIR, providers: providerIds(config.IDENTITY_PROVIDERS), signInLink: config.SMTP_URL ? "email" : "console",
        });
        const admin = await startAdminSocket({ path: adminSocketPath(config.DATA_DIR), identity, logger: app.log });
        return [{ stop: () => admin.close() }, revocations];
      },
    },
    { config, ...shared },
  );
