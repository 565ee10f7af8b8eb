import { startTelemetry } from "@fit/telemetry";

await startTelemetry("fit");
// Imported only now, so the tracing SDK is in place before Fastify loads node:http and can instrument it.
const [
  { pino },
  { allEvents },
  { createBus },
  { buildBodyMetrics, loadBodyMetricsConfig },
  { buildCoach, loadCoachConfig },
  { buildGateway, loadGatewayConfig },
  { buildImports, loadImportsConfig },
  { buildInsights, loadInsightsConfig },
  { buildNutrition, loadNutritionConfig },
  { runUntilSignalled },
  { buildWorkouts, loadWorkoutsConfig },
  { loadLauncherConfig },
  { localSecrets },
  { openEmbeddedDatabases },
] = await Promise.all([
  import("pino"),
  import("@fit/contracts"),
  import("@fit/bus"),
  import("@fit/body-metrics"),
  import("@fit/coach"),
  import("@fit/gateway"),
  import("@fit/imports"),
  import("@fit/insights"),
  import("@fit/nutrition"),
  import("@fit/service-kit"),
  import("@fit/workouts"),
  import("./config.ts"),
  import("./secrets.ts"),
  import("./embedded-databases.ts"),
]);

/**
 * The whole system in one process: every service built from the same code as when it runs alone, each on its
 * own loopback port behind the gateway, sharing one bus. Embedded defaults (one PGlite with a schema per
 * service, in-process bus) unless DATABASE_URL / NATS_URL are set.
 */
const { config, env, dataDirFlag } = loadLauncherConfig();
const shared = { ...env, ...(await localSecrets(config)), HOST: "127.0.0.1", PORT: "0" };
const bus = await createBus({
  natsUrl: config.NATS_URL,
  name: "all-in-one",
  logger: pino({ base: { service: "bus" } }),
  streams: allEvents,
});

const pglite = config.DATABASE_URL ? undefined : await openEmbeddedDatabases(config.DATA_DIR);

const bodyMetrics = await buildBodyMetrics({ config: loadBodyMetricsConfig(shared), bus, pglite });
const nutrition = await buildNutrition({ config: loadNutritionConfig(shared), bus, pglite });
const workouts = await buildWorkouts({ config: loadWorkoutsConfig(shared), bus, pglite });
const insights = await buildInsights({ config: loadInsightsConfig(shared), bus, pglite });
const imports = await buildImports({ config: loadImportsConfig(shared), bus, pglite });
const coachConfig = loadCoachConfig(shared);
const coach = await buildCoach({ config: coachConfig, bus, pglite });
const bodyMetricsUrl = await bodyMetrics.listen({ host: "127.0.0.1", port: 0 });
const nutritionUrl = await nutrition.listen({ host: "127.0.0.1", port: 0 });
const workoutsUrl = await workouts.listen({ host: "127.0.0.1", port: 0 });
const insightsUrl = await insights.listen({ host: "127.0.0.1", port: 0 });
const importsUrl = await imports.listen({ host: "127.0.0.1", port: 0 });
// The coach answers over the bus only; it listens for its health probes like every service.
await coach.listen({ host: "127.0.0.1", port: 0 });

const gateway = await buildGateway({
  config: loadGatewayConfig({
    ...shared,
    HOST: config.HOST,
    PORT: String(config.PORT),
    BODY_METRICS_URL: bodyMetricsUrl,
    NUTRITION_URL: nutritionUrl,
    WORKOUTS_URL: workoutsUrl,
    INSIGHTS_URL: insightsUrl,
    IMPORTS_URL: importsUrl,
  }),
  bus,
  pglite,
});
const url = await runUntilSignalled({
  app: gateway,
  host: config.HOST,
  port: config.PORT,
  // The gateway first: it stops taking requests and its own relay before the services behind it go.
  afterClose: async () => {
    await Promise.all([bodyMetrics.close(), nutrition.close(), workouts.close(), insights.close(), imports.close(), coach.close()]);
    await bus.close();
    await pglite?.close();
  },
});

console.log(`
Fitness platform is up at ${url}  (data in ${config.DATA_DIR}, ${config.DATABASE_URL ? "PostgreSQL" : pglite ? "embedded PGlite" : "embedded PGlite, a folder per service"}, ${config.NATS_URL ? "NATS" : "in-process bus"},
  coach: ${coachConfig.COACH_MODEL_URL ? `model ${coachConfig.COACH_MODEL} at ${coachConfig.COACH_MODEL_URL}` : "built-in estimator (set COACH_MODEL_URL for a language model)"})
  API description:   ${url}/openapi.json
  Get an API key:    ${dataDirFlag}npx -y pnpm@10 create-key you@example.com      (prints the key as its last line)
  Then:              curl -H "Authorization: Bearer <key>" ${url}/api/dashboard
  Or sign in:        curl -X POST ${url}/api/auth/sign-in/magic-link -H 'content-type: application/json' \\
                          -H 'origin: ${url}' -d '{"email":"you@example.com"}'
                     (without SMTP_URL the link is printed here)
`);
