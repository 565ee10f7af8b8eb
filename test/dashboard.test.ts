import { Dashboard, type Insights } from "@fit/contracts";
import { afterAll, beforeAll, describe, expect, inject, it, onTestFinished } from "vitest";
import { client } from "./support/http.ts";
import { startSystem, type System } from "./support/system.ts";

let system: System;

// A short deadline, so a service that does not answer fails the dashboard fast.
const DASHBOARD_ENV = { DASHBOARD_TIMEOUT_MS: "500" };

beforeAll(async () => {
  system = await startSystem({ databaseUrl: inject("databaseUrl"), natsUrl: inject("natsUrl"), env: DASHBOARD_ENV });
});
afterAll(() => system?.stop());

const DAY = 86_400_000;

describe("GET /api/dashboard", () => {
  it("answers every field, null or empty, for an account with nothing logged", async () => {
    const api = client(system.url, (await system.account()).key);
    const response = await api.get("/api/dashboard");
    expect(response.status).toBe(200);
    const { workoutsThisWeek, ...rest } = response.body;
    expect(rest).toEqual({ weight: null, targets: null, measurementsLatest: [], shoulderToWaist: null, nutritionToday: null });
    expect(workoutsThisWeek).toMatchObject({ count: 0, durationS: 0, distanceM: 0, energyKcal: 0 });
  });

  it("merges weight, targets, measurements and the chosen day's nutrition", async () => {
    const { key, email } = await system.account();
    const api = client(system.url, key);
    const noon = Date.parse("2026-11-22T12:00:00Z");
    await api.post("/api/weight", { weightKg: 81, ts: noon - 8 * DAY });
    await api.post("/api/weight", { weightKg: 80, ts: noon - 2 * DAY });
    await api.post("/api/weight", { weightKg: 79, bodyFatPct: 17, note: "lean", ts: noon });
    await api.post("/api/weight", { weightKg: 70, ts: noon + 3 * DAY }); // after the requested day: not "latest"
    await api.post("/api/measurements", { site: "waist", valueCm: 90, ts: noon - DAY });
    await api.post("/api/measurements", { site: "waist", valueCm: 80, ts: noon });
    await api.post("/api/measurements", { site: "shoulders", valueCm: 120, ts: noon });
    // Dates with milliseconds: they come back as the same instants.
    const targets = (await api.put("/api/targets", {
      goalWeightKg: 75, startWeightKg: 82, startDate: noon - 30 * DAY + 123, targetDate: noon + 60 * DAY + 987, dailyKcalTarget: 2000, proteinTargetG: 150,
    })).body;
    expect(targets).toMatchObject({ startDate: noon - 30 * DAY + 123, targetDate: noon + 60 * DAY + 987 });
    await api.post("/api/nutrition/items", { date: "2026-11-22", name: "oats", kcal: 1900, proteinG: 160 });

    await expect
      .poll(async () => (await api.get("/api/dashboard?date=2026-11-22")).body.nutritionToday?.adherence, { timeout: 10_000 })
      .toBe("on");
    await expect
      .poll(async () => ((await api.get("/api/insights?date=2026-11-22")).body as Insights).trend.length, { timeout: 10_000 })
      .toBe(9);
    const { body, headers } = await api.get("/api/dashboard?date=2026-11-22");
    // Written from the services' replies without a serializer (docs/decisions/0056-dashboard-spliced-from-replies.md):
    // still JSON, every field of the contract in its order, and nothing else.
    expect(headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(Object.keys(body)).toEqual(Object.keys(Dashboard.shape));
    expect(Dashboard.strict().safeParse(body).success).toBe(true);
    // The trend weight and rate are insights', from its read model of the same weigh-ins: the same as its own answer.
    const insights = (await api.get("/api/insights?date=2026-11-22")).body as Insights;
    expect(insights.trend.map((point) => point.kg)).toEqual([81, null, null, null, null, null, 80, null, 79]);
    expect(insights.trendKg).toBeGreaterThan(79);
    expect(insights.trendKg).toBeLessThan(81);
    expect(body.weight).toEqual({
      trendKg: insights.trendKg,
      weeklyRateKg: insights.weeklyRateKg,
      latestKg: 79,
      weeklyAvgKg: 79.5,
      bodyFatPct: 17,
      note: "lean",
      trend: [{ ts: noon - 8 * DAY, kg: 81 }, { ts: noon - 2 * DAY, kg: 80 }, { ts: noon, kg: 79 }],
    });
    expect(body.targets).toEqual(targets);
    expect(body.measurementsLatest).toEqual(
      expect.arrayContaining([{ site: "waist", valueCm: 80, ts: noon }, { site: "shoulders", valueCm: 120, ts: noon }]),
    );
    expect(body.measurementsLatest).toHaveLength(2);
    expect(body.shoulderToWaist).toBe(1.5);
    expect(body.nutritionToday).toEqual({
      userEmail: email, date: "2026-11-22", kcal: 1900, proteinG: 160, fatG: null, carbsG: null, fiberG: null, macrosUnknownItems: expect.any(Number),
      hitProtein: true, adherence: "on",
    });
    expect(body.nutritionToday.macrosUnknownItems, "every item was typed without fat, carbs and fibre").toBeGreaterThan(0);
    expect((await api.get("/api/dashboard?date=2026-11-21")).body.nutritionToday).toBeNull();
  });

  it("refuses an invalid date", async () => {
    const api = client(system.url, (await system.account()).key);
    expect((await api.get("/api/dashboard?date=2026-02-30")).status).toBe(400);
  });

  it("never shows another account's data", async () => {
    const alice = client(system.url, (await system.account()).key);
    const bob = client(system.url, (await system.account()).key);
    await alice.post("/api/weight", { weightKg: 90 });
    expect((await bob.get("/api/dashboard")).body.weight).toBeNull();
  });

  it("answers 503 in the envelope when a service does not answer", async () => {
    // A system of its own: stopping a service of the file's shared one would break every test after this one.
    const own = await startSystem({ databaseUrl: inject("databaseUrl"), natsUrl: inject("natsUrl"), env: DASHBOARD_ENV });
    onTestFinished(() => own.stop());
    const api = client(own.url, (await own.account()).key);
    await api.post("/api/weight", { weightKg: 80 });
    // The trend is insights' number, not logged data: without insights the weight stands, its trend and rate null.
    await own.apps.insights.close();
    const withoutInsights = await api.get("/api/dashboard");
    expect(withoutInsights.status).toBe(200);
    expect(withoutInsights.body.weight).toMatchObject({ trendKg: null, weeklyRateKg: null, latestKg: 80 });
    await own.apps.nutrition.close();
    const started = Date.now();
    const response = await api.get("/api/dashboard");
    expect(response.status).toBe(503);
    expect(response.body).toEqual({ error: "dashboard unavailable", detail: "nutrition did not answer" });
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
