// Every read the API offers an account, compared with the model. Reads must see writes at once (README,
// "Daily totals": read-your-writes); the one documented lag is nutrition's copy of the targets (README,
// "Targets in nutrition"), which only `adherence` and `hitProtein` depend on, so only those are polled for.
import { setTimeout as delay } from "node:timers/promises";
import { expect } from "vitest";
import type { client } from "../http.ts";
import { DAYS, type AccountModel, type Model } from "./model.ts";

export type Api = ReturnType<typeof client>;
export interface Real { apis: readonly [Api, Api] }

/** How long the targets copy may lag: the README says milliseconds; this leaves room for a loaded machine. */
const TARGETS_LAG_MS = 5_000;

/** Every page of a newest-first listing (small pages, so the keyset cursor is exercised too). */
const allPages = async (api: Api, path: string) => {
  const items: unknown[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 100; page++) {
    const response = await api.get(`${path}?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    expect(response.status, `GET ${path}`).toBe(200);
    items.push(...response.body.items);
    cursor = response.body.nextCursor;
    if (!cursor) return items;
  }
  throw new Error(`GET ${path} never reached its last page`);
};

/**
 * Reads until `settled` holds, within the targets lag. `always` must hold on every read, the first one
 * included: it covers everything the documented lag does not excuse.
 */
const eventually = async <T>(read: () => Promise<T>, always: (value: T) => void, settled: (value: T) => void) => {
  const deadline = Date.now() + TARGETS_LAG_MS;
  for (;;) {
    const value = await read();
    always(value);
    try {
      settled(value);
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
    await delay(20);
  }
};

type Total = { date: string; kcal: number; proteinG: number; userEmail: string; hitProtein: boolean; adherence: string | null };
const sums = (t: Total | null) => t && { userEmail: t.userEmail, date: t.date, kcal: t.kcal, proteinG: t.proteinG };

const checkWeights = async (account: AccountModel, api: Api) => {
  const expected = account.weightsNewestFirst().map((r) => ({ ...r, source: "manual", createdAt: expect.any(Number) }));
  expect(await allPages(api, "/api/weight"), "GET /api/weight (newest first, all pages)").toEqual(expected);
};

const checkMeasurements = async (account: AccountModel, api: Api) => {
  const expected = account.measurementsNewestFirst().map((m) => ({ ...m, createdAt: expect.any(Number) }));
  expect(await allPages(api, "/api/measurements"), "GET /api/measurements (newest first, all pages)").toEqual(expected);
};

const checkTargets = async (account: AccountModel, api: Api) => {
  const response = await api.get("/api/targets");
  expect(response.status).toBe(200);
  expect(response.body, "GET /api/targets").toEqual(account.targets);
};

const checkTotals = async (account: AccountModel, api: Api) => {
  const expected = account.dailyTotals();
  await eventually(
    async () => {
      const response = await api.get("/api/nutrition");
      expect(response.status).toBe(200);
      return response.body as Total[];
    },
    (totals) => expect(totals.map(sums), "GET /api/nutrition: days and sums (read-your-writes)").toEqual(expected.map(sums)),
    (totals) => expect(totals, "GET /api/nutrition: adherence and hitProtein under the current targets").toEqual(expected),
  );
};

const checkItems = async (account: AccountModel, api: Api, day: string) => {
  const response = await api.get(`/api/nutrition/items?date=${day}`);
  expect(response.status).toBe(200);
  expect(response.body, `GET /api/nutrition/items?date=${day} (oldest first, as logged)`).toEqual(account.itemsOn(day));
};

/** The weekly and daily means and the ratio are shown rounded (2, 2 and 3 decimals): equal within half a unit of the last place. */
const near = (actual: unknown, expected: number, places: number, what: string) => {
  expect(actual, what).toBeTypeOf("number");
  expect(Math.abs((actual as number) - expected), `${what}: ${String(actual)} vs ${expected}`).toBeLessThanOrEqual(0.5 * 10 ** -places + 1e-9);
};

const checkDashboard = async (account: AccountModel, api: Api, day: string) => {
  const weight = account.weightSummary(day);
  const ratio = account.shoulderToWaist();
  const today = account.dayTotal(day);
  const bySite = (list: { site: string }[]) => [...list].sort((a, b) => a.site.localeCompare(b.site));
  const what = `GET /api/dashboard?date=${day}`;
  await eventually(
    async () => {
      const response = await api.get(`/api/dashboard?date=${day}`);
      expect(response.status, `${what}: ${JSON.stringify(response.body)}`).toBe(200);
      // The trend's figures are insights', read from the same read model as GET /api/insights (its own tests check them).
      const insights = await api.get(`/api/insights?date=${day}`);
      return { ...response.body, insights: insights.body };
    },
    (body) => {
      if (weight) {
        near(body.weight?.weeklyAvgKg, weight.weeklyAvgKg, 2, `${what} weight.weeklyAvgKg`);
        weight.trend.forEach((point, i) => near(body.weight?.trend?.[i]?.kg, point.kg, 2, `${what} weight.trend[${i}].kg`));
      }
      const rounded = (w: typeof weight) => w && { ...w, weeklyAvgKg: 0, trend: w.trend.map(({ ts }) => ({ ts, kg: 0 })) };
      const { trendKg: _trendKg, weeklyRateKg: _weeklyRateKg, ...modelled } = body.weight ?? {};
      expect(rounded(body.weight && modelled), `${what} weight`).toEqual(rounded(weight));
      expect(body.targets, `${what} targets`).toEqual(account.targets);
      expect(bySite(body.measurementsLatest), `${what} measurementsLatest`).toEqual(bySite(account.latestMeasurements()));
      if (ratio === null) expect(body.shoulderToWaist, `${what} shoulderToWaist`).toBeNull();
      else near(body.shoulderToWaist, ratio, 3, `${what} shoulderToWaist`);
      expect(sums(body.nutritionToday), `${what} nutritionToday (read-your-writes)`).toEqual(sums(today));
    },
    (body) => {
      expect(body.nutritionToday, `${what} nutritionToday under the current targets`).toEqual(today);
      // Insights' read model follows the events, so its figures are checked once settled.
      if (body.weight) {
        const { trendKg, weeklyRateKg } = body.weight;
        expect({ trendKg, weeklyRateKg }, `${what} weight.trendKg and weeklyRateKg`).toEqual({ trendKg: body.insights.trendKg, weeklyRateKg: body.insights.weeklyRateKg });
      }
    },
  );
};

/**
 * Everything one account can read: its lists, targets and totals, and for each day a command touched (else the
 * last day, where every reading counts) that day's items and dashboard. CheckAll covers the other days.
 */
export const verify = async (model: Model, real: Real, who: 0 | 1, days: readonly string[] = []) => {
  const account = model.accounts[who];
  const api = real.apis[who];
  const perDay = days.length > 0 ? [...new Set(days)] : [DAYS[DAYS.length - 1]!];
  await Promise.all([
    checkWeights(account, api),
    checkMeasurements(account, api),
    checkTargets(account, api),
    checkTotals(account, api),
    ...perDay.flatMap((day) => [checkItems(account, api, day), checkDashboard(account, api, day)]),
  ]);
};
