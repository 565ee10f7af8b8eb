import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bodyMetricsBus } from "@fit/contracts";
import { createInProcessBus, type Bus } from "@fit/bus";
import { ASSERTION_HEADER, signAssertion } from "@fit/service-kit";
import { buildBodyMetrics, loadBodyMetricsConfig } from "../../src/index.ts";

/** The embedded default: PGlite on disk and the in-process bus, no server anywhere. */
let dataDir: string;
let bus: Bus;
const secret = randomBytes(32).toString("hex");
const caller = { accountId: randomUUID(), email: "embedded@example.com", scopes: null };

const start = () =>
  buildBodyMetrics({
    config: loadBodyMetricsConfig({ DATA_DIR: dataDir, INTERNAL_ASSERTION_SECRET: secret, LOG_LEVEL: "silent" }),
    bus,
  });

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "fit-body-metrics-"));
  bus = createInProcessBus({ logger: { debug() {}, info() {}, warn() {}, error() {} } });
});
afterAll(async () => {
  await bus.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe("body-metrics in the embedded mode", () => {
  it("keeps its data across a restart and answers the bus from it", async () => {
    const first = await start();
    const headers = { [ASSERTION_HEADER]: await signAssertion(secret, caller) };
    const ts = Date.parse("2026-11-22T07:00:00Z");
    const logged = await first.inject({ method: "POST", url: "/api/weight", headers, payload: { weightKg: 77.7, ts } });
    expect(logged.statusCode).toBe(200);
    await first.close();

    const second = await start();
    const list = await second.inject({ method: "GET", url: "/api/weight", headers });
    expect(list.json().items).toEqual([expect.objectContaining({ id: logged.json().id, weightKg: 77.7 })]);
    const summary = await bus.request(bodyMetricsBus.weightSummary, { accountId: caller.accountId, date: "2026-11-22" });
    expect(summary).toMatchObject({ latestKg: 77.7, trend: [{ ts, kg: 77.7 }] });
    for (const [site, valueCm, at] of [["waist", 90, ts - 1000], ["waist", 80, ts], ["shoulders", 120, ts]] as const) {
      await second.inject({ method: "POST", url: "/api/measurements", headers, payload: { site, valueCm, ts: at } });
    }
    const latest = await bus.request(bodyMetricsBus.dashboard, { accountId: caller.accountId, date: "2026-11-22" });
    expect(latest.shoulderToWaist).toBe(1.5);
    expect(latest.measurementsLatest).toEqual(
      expect.arrayContaining([{ site: "waist", valueCm: 80, ts }, { site: "shoulders", valueCm: 120, ts }]),
    );
    expect(latest.measurementsLatest).toHaveLength(2);
    await second.close();
  });

  it("refuses /api requests without the gateway's assertion", async () => {
    const app = await start();
    const response = await app.inject({ method: "GET", url: "/api/weight" });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ error: "missing internal assertion" });
    const expired = await app.inject({ method: "GET", url: "/api/weight", headers: { [ASSERTION_HEADER]: await signAssertion("another-secret-another-secret-xx", caller) } });
    expect(expired.statusCode).toBe(401);
    await app.close();
  });
});
