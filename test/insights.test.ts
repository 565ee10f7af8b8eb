import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { Insights, Profile } from "@fit/contracts";
import { client } from "./support/http.ts";
import { startSystem, type System } from "./support/system.ts";
import { waitFor } from "./support/wait.ts";

let system: System;

beforeAll(async () => {
  // A repair pass every second over 90 days, so the test of the reconciliation need not wait an hour and reaches
  // its readings of October.
  system = await startSystem({
    databaseUrl: inject("databaseUrl"), natsUrl: inject("natsUrl"), env: { RECONCILE_INTERVAL_MS: "1000", INSIGHTS_RECONCILE_WINDOW_DAYS: "90" },
  });
});
afterAll(() => system?.stop());

const DEFAULTS = { heightCm: null, birthYear: null, sex: null, activityLevel: null, units: "metric", timeZone: "UTC", firstDayOfWeek: "monday" };

describe("the profile", () => {
  it("answers the defaults until it is set, then what was set, replacing it whole", async () => {
    const api = client(system.url, (await system.account()).key);
    expect((await api.get("/api/profile")).body).toEqual(DEFAULTS);

    const full = { heightCm: 172.5, birthYear: 1988, sex: "female", activityLevel: "moderate", units: "imperial_stones", timeZone: "America/New_York", firstDayOfWeek: "sunday" };
    const put = await api.put("/api/profile", full);
    expect(put.status).toBe(200);
    expect(Profile.parse(put.body)).toEqual(full);
    expect((await api.get("/api/profile")).body).toEqual(full);

    // A replacing write: what is not sent goes back to its default.
    expect((await api.put("/api/profile", { units: "imperial" })).body).toEqual({ ...DEFAULTS, units: "imperial" });
    expect((await api.get("/api/profile")).body).toEqual({ ...DEFAULTS, units: "imperial" });
  });

  it("refuses a bad field by name and keeps the stored profile", async () => {
    const api = client(system.url, (await system.account()).key);
    const stored = { heightCm: 180, units: "metric", timeZone: "Europe/Berlin" };
    expect((await api.put("/api/profile", stored)).status).toBe(200);
    const before = (await api.get("/api/profile")).body;
    const bad: [Record<string, unknown>, string][] = [
      [{ timeZone: "Mars/Olympus_Mons" }, "timeZone"],
      [{ timeZone: "+02:00" }, "timeZone"],
      [{ timeZone: "x".repeat(200) }, "timeZone"],
      [{ units: "stones" }, "units"],
      [{ heightCm: 20 }, "heightCm"],
      [{ heightCm: "180" }, "heightCm"],
      [{ birthYear: 1850 }, "birthYear"],
      [{ birthYear: 1990.5 }, "birthYear"],
      [{ sex: "other" }, "sex"],
      [{ activityLevel: "extreme" }, "activityLevel"],
      [{ firstDayOfWeek: "friday" }, "firstDayOfWeek"],
    ];
    for (const [body, field] of bad) {
      const response = await api.put("/api/profile", body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(response.body.error), JSON.stringify(body)).toContain(field);
    }
    expect((await api.get("/api/profile")).body).toEqual(before);
  });

  it("is each account's own, and a read-only key cannot write it", async () => {
    const a = client(system.url, (await system.account()).key);
    const b = client(system.url, (await system.account()).key);
    expect((await a.put("/api/profile", { units: "imperial", timeZone: "Asia/Tokyo" })).status).toBe(200);
    expect((await b.get("/api/profile")).body).toEqual(DEFAULTS);

    const reader = client(system.url, (await system.account(["profile:read"])).key);
    expect((await reader.get("/api/profile")).status).toBe(200);
    expect((await reader.put("/api/profile", { units: "imperial" })).status).toBe(403);
  });
});

const DAY_MS = 86_400_000;
const FIRST = Date.parse("2026-10-01T07:00:00Z");
const day = (i: number) => new Date(FIRST + i * DAY_MS).toISOString().slice(0, 10);

/** Days of the trend with a weigh-in of their own: the ends alone do not show that every reading between them has arrived. */
const weighedDays = (insights: Insights) => insights.trend.filter((point) => point.kg !== null).length;

const insightsAsOf = async (api: ReturnType<typeof client>, date: string) => {
  const response = await api.get(`/api/insights?date=${date}`);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return Insights.parse(response.body);
};

/** Rows lost from the read model; with `forget`, the account as if the read model had never heard of it. */
const deleteFromReadModel = async (accountId: string, { forget = false } = {}) => {
  const db = new pg.Client({ connectionString: system.env.DATABASE_URL });
  await db.connect();
  try {
    await db.query("DELETE FROM insights.weight_reading WHERE account_id = $1", [accountId]);
    await db.query("DELETE FROM insights.intake_day WHERE account_id = $1", [accountId]);
    if (forget) await db.query("DELETE FROM insights.backfilled_account WHERE account_id = $1", [accountId]);
  } finally {
    await db.end();
  }
};

describe("insights from weigh-ins and food days", () => {
  it("trend, rate, goal date, expenditure and a suggestion to adopt; deletions and back-dated readings reach it", async () => {
    const { key, accountId } = await system.account();
    const api = client(system.url, key);
    await api.put("/api/profile", { heightCm: 178, birthYear: 1986, sex: "male", activityLevel: "moderate", timeZone: "UTC" });
    await api.put("/api/targets", { goalWeightKg: 78, targetDate: Date.parse("2027-03-01T00:00:00Z") });
    // 28 days losing 0.1 kg a day under ±0.5 kg of water; food on 20 of them.
    const ids: string[] = [];
    for (let i = 0; i < 28; i++) {
      const response = await api.post("/api/weight", { weightKg: 88 - 0.1 * i + (i % 2 ? 0.5 : -0.5), ts: FIRST + i * DAY_MS });
      ids.push(response.body.id);
      if (i % 7 < 5) expect((await api.post("/api/nutrition/items", { date: day(i), name: "meals", kcal: 2200, proteinG: 140 })).status).toBe(200);
    }
    const asOf = day(27);
    const first = await waitFor("the read model to hold every day", async () => {
      const insights = await insightsAsOf(api, asOf);
      return weighedDays(insights) === 28 && insights.days.length === 20 ? insights : undefined;
    });
    expect(first.date).toBe(asOf);
    expect(first.trend[0]).toMatchObject({ date: day(0), kg: 87.5 });
    expect(first.trendKg).toBeGreaterThan(84.6);
    expect(first.trendKg).toBeLessThan(85.8);
    expect(first.weeklyRateKg).toBeGreaterThan(-1.1);
    expect(first.weeklyRateKg).toBeLessThan(-0.3);
    expect(first.goal).toMatchObject({ goalWeightKg: 78, targetDate: "2027-03-01" });
    expect(first.goal!.goalDate! > asOf).toBe(true);
    expect(first.days.every((d) => d.counted && d.kcal === 2200)).toBe(true);
    const expenditure = first.expenditure!;
    expect(expenditure.daysCounted).toBe(20);
    expect(expenditure.low).toBeLessThanOrEqual(expenditure.kcal);
    expect(expenditure.high).toBeGreaterThanOrEqual(expenditure.kcal);
    expect(first.suggestedTargets).not.toBeNull();

    // The newest reading deleted, and one back-dated before the first: the trend follows both.
    expect((await api.delete(`/api/weight/${ids[27]}`)).status).toBe(200);
    await api.post("/api/weight", { weightKg: 88.2, ts: FIRST - 2 * DAY_MS });
    const second = await waitFor("the deletion and the back-dated reading", async () => {
      const insights = await insightsAsOf(api, asOf);
      return insights.trend[0]?.date === day(-2) && insights.trend.at(-1)?.date === day(26) && weighedDays(insights) === 28 ? insights : undefined;
    });
    expect(second.trend).toHaveLength(29);

    // Adopting makes the suggestion the targets and keeps the goal.
    const today = (await api.get("/api/insights")).body as Insights;
    const adopted = await api.post("/api/insights/adopt-targets");
    expect(adopted.status, JSON.stringify(adopted.body)).toBe(200);
    expect(adopted.body).toMatchObject({ goalWeightKg: 78, dailyKcalTarget: today.suggestedTargets!.dailyKcal, proteinTargetG: today.suggestedTargets!.dailyProteinG });
    expect((await api.get("/api/targets")).body).toMatchObject({ goalWeightKg: 78, dailyKcalTarget: today.suggestedTargets!.dailyKcal });

    // Drift (rows lost from the read model) is repaired from body-metrics and nutrition.
    const before = await insightsAsOf(api, asOf);
    await deleteFromReadModel(accountId);
    await waitFor("the repair pass to restore the read model", async () => {
      const insights = await insightsAsOf(api, asOf);
      return weighedDays(insights) === weighedDays(before) && insights.days.length === before.days.length ? true : undefined;
    }, 30_000);
    expect(await insightsAsOf(api, asOf)).toEqual(before);
  });

  it("copies in the history of an account it never heard of (older than its repair window) on the first read", async () => {
    const { key, accountId } = await system.account();
    const api = client(system.url, key);
    const longAgo = Date.now() - 200 * DAY_MS;
    const longAgoDay = new Date(longAgo).toISOString().slice(0, 10);
    for (let i = 0; i < 3; i++) await api.post("/api/weight", { weightKg: 90 - i, ts: longAgo + i * DAY_MS });
    await api.post("/api/nutrition/items", { date: longAgoDay, name: "meals", kcal: 2500, proteinG: 120 });
    const asOf = new Date(longAgo + 2 * DAY_MS).toISOString().slice(0, 10);
    const before = await waitFor("the events to reach the read model", async () => {
      const insights = await insightsAsOf(api, asOf);
      return insights.trend.length === 3 && insights.days.length === 1 ? insights : undefined;
    });
    await deleteFromReadModel(accountId, { forget: true });
    // A process remembers the accounts it has back-filled: the read model never hearing of the account is a new one.
    await system.apps.insights.close();
    await system.inPlace("insights");
    expect(await insightsAsOf(api, asOf)).toEqual(before);
  });

  it("counts a day marked complete however thin, and leaves out a day marked excluded", async () => {
    const api = client(system.url, (await system.account()).key);
    // 14 weigh-ins; food on the first 10 days, 11 and 12 without any.
    for (let i = 0; i < 14; i++) {
      expect((await api.post("/api/weight", { weightKg: 80 - 0.05 * i, ts: FIRST + i * DAY_MS })).status).toBe(200);
      if (i < 10) expect((await api.post("/api/nutrition/items", { date: day(i), name: "meals", kcal: 2000, proteinG: 120 })).status).toBe(200);
    }
    const asOf = day(13);
    const before = await waitFor("the read model to hold every day", async () => {
      const insights = await insightsAsOf(api, asOf);
      return insights.trend.length === 14 && insights.days.length === 10 ? insights : undefined;
    });
    expect(before.expenditure!.daysCounted).toBe(10);

    const excluded = await api.put(`/api/nutrition/days/${day(3)}`, { mark: "excluded" });
    expect(excluded.body).toEqual({ date: day(3), mark: "excluded", counted: false, itemCount: 1, kcal: 2000 });
    const fast = await api.put(`/api/nutrition/days/${day(11)}`, { mark: "complete" });
    expect(fast.body).toEqual({ date: day(11), mark: "complete", counted: true, itemCount: 0, kcal: 0 });
    expect((await api.get(`/api/nutrition/days/${day(12)}`)).body).toEqual({ date: day(12), mark: "auto", counted: false, itemCount: 0, kcal: 0 });

    const marked = await waitFor("both marks to reach the insights", async () => {
      const insights = await insightsAsOf(api, asOf);
      return insights.days.length === 11 && insights.days.some((d) => d.date === day(3) && !d.counted) ? insights : undefined;
    });
    expect(marked.days.find((d) => d.date === day(11))).toEqual({ date: day(11), kcal: 0, counted: true });
    expect(marked.days.filter((d) => d.counted).map((d) => d.date)).toEqual([0, 1, 2, 4, 5, 6, 7, 8, 9, 11].map(day));
    expect(marked.expenditure!.daysCounted).toBe(10);
    // A fast counted as eaten-nothing pulls the estimate of what is burnt below what a day unknown would.
    expect(marked.expenditure!.kcal).toBeLessThan(before.expenditure!.kcal);

    // Back to the default: the excluded day counts again, the fast is unknown again.
    for (const date of [day(3), day(11)]) expect((await api.put(`/api/nutrition/days/${date}`, { mark: "auto" })).status).toBe(200);
    const back = await waitFor("the marks to be undone", async () => {
      const insights = await insightsAsOf(api, asOf);
      return insights.days.length === 10 && insights.days.every((d) => d.counted) ? insights : undefined;
    });
    expect(back.expenditure).toEqual(before.expenditure);

    for (const [date, body] of [["2026-02-30", { mark: "complete" }], [day(3), { mark: "done" }], [day(3), {}]] as const) {
      const refused = await api.put(`/api/nutrition/days/${date}`, body);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatch(/date|mark/);
    }
    expect((await api.get(`/api/nutrition/days/${day(3)}`)).body).toMatchObject({ mark: "auto", counted: true });
  });

  it("has nothing to suggest without a goal or a weigh-in, and refuses a bad date", async () => {
    const api = client(system.url, (await system.account()).key);
    const empty = await api.get("/api/insights");
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ trend: [], trendKg: null, weeklyRateKg: null, goal: null, expenditure: null, suggestedTargets: null, days: [] });
    expect((await api.post("/api/insights/adopt-targets")).status).toBe(422);
    for (const date of ["2026-02-30", "today", "2026-1-1"]) {
      const response = await api.get(`/api/insights?date=${date}`);
      expect(response.status).toBe(400);
      expect(response.body.error).toContain("date");
    }
  });
});
