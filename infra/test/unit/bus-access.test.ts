// Each service, built for real (PGlite, an in-process bus that records what the service does on it), registers only
// what its bus access gives it, and everything that access names for answering and consuming: NATS would refuse
// the rest, and the permissions must not grant more than is used (issue 36,
// docs/decisions/0061-per-service-nats-users-and-database-roles.md). Questions and events sent while serving
// requests are proved against a real server by the container tier.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { createInProcessBus, type Bus, type Logger } from "@fit/bus";
import { allEndpoints, allEvents, busAccess, type BusUser } from "@fit/contracts";
import type { HttpApp } from "@fit/service-kit";
import { describe, expect, it } from "vitest";
import { buildBodyMetrics, loadBodyMetricsConfig } from "../../../services/body-metrics/src/index.ts";
import { buildCoach, loadCoachConfig } from "../../../services/coach/src/index.ts";
import { buildGateway, loadGatewayConfig } from "../../../services/gateway/src/index.ts";
import { buildImports, loadImportsConfig } from "../../../services/imports/src/index.ts";
import { buildInsights, loadInsightsConfig } from "../../../services/insights/src/index.ts";
import { buildNutrition, loadNutritionConfig } from "../../../services/nutrition/src/index.ts";
import { buildWorkouts, loadWorkoutsConfig } from "../../../services/workouts/src/index.ts";

const silent: Logger = { debug() {}, info() {}, warn() {}, error() {} };

interface Registered {
  serves: string[];
  consumes: string[];
  listens: string[];
  buckets: string[];
}

/** What a service registers on the bus while it is built. */
const recording = (inner: Bus) => {
  const seen: Registered = { serves: [], consumes: [], listens: [], buckets: [] };
  const bus: Bus = {
    ...inner,
    serve: (def, handler) => (seen.serves.push(def.subject), inner.serve(def, handler)),
    subscribe: (def, durable, handler, opts) => (seen.consumes.push(`${def.subject} ${durable}`), inner.subscribe(def, durable, handler, opts)),
    listen: (subject, handler, onLive) => (seen.listens.push(subject), inner.listen(subject, handler, onLive)),
    keyValue: (bucket, options) => (seen.buckets.push(bucket), inner.keyValue(bucket, options)),
  };
  return { bus, seen };
};

const builders: Record<BusUser, (env: NodeJS.ProcessEnv, bus: Bus) => Promise<HttpApp>> = {
  gateway: (env, bus) => buildGateway({ config: loadGatewayConfig({ ...env, BETTER_AUTH_SECRET: randomUUID() + randomUUID() }), bus }),
  "body-metrics": (env, bus) => buildBodyMetrics({ config: loadBodyMetricsConfig(env), bus }),
  nutrition: (env, bus) => buildNutrition({ config: loadNutritionConfig(env), bus }),
  workouts: (env, bus) => buildWorkouts({ config: loadWorkoutsConfig(env), bus }),
  coach: (env, bus) => buildCoach({ config: loadCoachConfig(env), bus }),
  insights: (env, bus) => buildInsights({ config: loadInsightsConfig(env), bus }),
  imports: (env, bus) => buildImports({ config: loadImportsConfig(env), bus }),
};

const sorted = (list: readonly string[]) => [...list].sort();

describe("each service's bus access", () => {
  it.each(Object.keys(busAccess) as BusUser[])("%s registers exactly what its access gives it", async (service) => {
    const dataDir = await mkdtemp(path.join(tmpdir(), `fit-bus-access-${service}-`));
    const inner = createInProcessBus({ logger: silent, streams: allEvents });
    const { bus, seen } = recording(inner);
    const env = { DATA_DIR: dataDir, INTERNAL_ASSERTION_SECRET: randomUUID() + randomUUID(), LOG_LEVEL: "silent" };
    const app = await builders[service](env, bus);
    try {
      // Ready as it would be before taking traffic, so closing it stops nothing half-started.
      await app.ready();
      expect((await app.inject({ method: "GET", url: "/readyz" })).statusCode).toBe(200);
      const access = busAccess[service];
      expect(sorted(seen.serves)).toEqual(sorted(allEndpoints.filter((e) => e.service === service).map((e) => e.subject)));
      expect(sorted(seen.consumes)).toEqual(sorted(access.consumes.map((c) => `${c.event.subject} ${c.durable}`)));
      expect(sorted(seen.listens)).toEqual(sorted(access.broadcasts));
      expect(sorted([...new Set(seen.buckets)])).toEqual(sorted(access.buckets));
    } finally {
      await app.close();
      await inner.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
