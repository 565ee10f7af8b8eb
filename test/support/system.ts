import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { buildBodyMetrics, loadBodyMetricsConfig } from "@fit/body-metrics";
import { adminSocketPath, buildGateway, loadGatewayConfig, requestAccountKey } from "@fit/gateway";
import { buildNutrition, loadNutritionConfig } from "@fit/nutrition";
import { createTestDatabase, deleteNamespaceStreams, freePort, uniqueTag } from "@fit/testing";


interface SystemOptions {
  databaseUrl: string;
  natsUrl: string;
  env?: Record<string, string>;
}

/**
 * The whole platform as it runs in production, in this test process: each service with its own NATS
 * connection and PostgreSQL schema (in a database of this test file's own), the gateway on real HTTP.
 * Subjects and streams carry a namespace of this system's own, so test files can run side by side.
 */
export const startSystem = async ({ databaseUrl, natsUrl, env: extra = {} }: SystemOptions) => {
  const database = await createTestDatabase(databaseUrl);
  const dataDir = await mkdtemp(join(tmpdir(), "fit-system-"));
  const port = await freePort();
  const env = {
    DATABASE_URL: database.url,
    NATS_URL: natsUrl,
    NATS_NAMESPACE: uniqueTag("ns"),
    DATA_DIR: dataDir,
    LOG_LEVEL: "silent",
    INTERNAL_ASSERTION_SECRET: randomBytes(32).toString("hex"),
    BETTER_AUTH_SECRET: randomBytes(32).toString("hex"),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    ...extra,
  };
  const bodyMetrics = await buildBodyMetrics({ config: loadBodyMetricsConfig(env) });
  const nutrition = await buildNutrition({ config: loadNutritionConfig(env) });
  const services = {
    bodyMetrics: await bodyMetrics.listen({ host: "127.0.0.1", port: 0 }),
    nutrition: await nutrition.listen({ host: "127.0.0.1", port: 0 }),
  };
  const gateway = await buildGateway({
    config: loadGatewayConfig({ ...env, BODY_METRICS_URL: services.bodyMetrics, NUTRITION_URL: services.nutrition }),
  });
  const url = await gateway.listen({ host: "127.0.0.1", port });

  return {
    url,
    env,
    services,
    apps: { gateway, bodyMetrics, nutrition },
    /** A new account and a key for it (full access unless scopes are given). */
    account: async (scopes?: string[]) => {
      const issued = await requestAccountKey(adminSocketPath(dataDir), `${uniqueTag("user")}@example.com`, scopes ? { scopes } : {});
      if (!issued) throw new Error("the gateway's admin socket did not answer");
      return issued;
    },
    stop: async () => {
      await gateway.close();
      await Promise.all([bodyMetrics.close(), nutrition.close()]);
      await database.drop();
      await deleteNamespaceStreams(natsUrl, env.NATS_NAMESPACE);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
};

export type System = Awaited<ReturnType<typeof startSystem>>;
