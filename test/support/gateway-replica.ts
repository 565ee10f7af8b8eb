import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServiceProcess } from "./service-process.ts";
import type { System } from "./system.ts";

/**
 * Another gateway for the system's services, database and NATS namespace, with the same public URL and secrets:
 * a second replica behind the same load balancer, as a process of its own started as production starts one.
 */
export const startReplica = async (system: System, logLevel = "warn", env: Record<string, string> = {}) => {
  const dataDir = await mkdtemp(join(tmpdir(), "fit-replica-"));
  const replica = await startServiceProcess("services/gateway/src/main.ts", {
    ...system.env,
    DATA_DIR: dataDir,
    LOG_LEVEL: logLevel,
    BODY_METRICS_URL: system.services.bodyMetrics,
    NUTRITION_URL: system.services.nutrition,
    WORKOUTS_URL: system.services.workouts,
    INSIGHTS_URL: system.services.insights,
    IMPORTS_URL: system.services.imports,
    ...env,
  });
  return {
    ...replica,
    stop: async () => {
      await replica.kill("SIGTERM");
      await rm(dataDir, { recursive: true, force: true });
    },
  };
};
