import { Dashboard } from "@fit/contracts";
import { describe, expect, it } from "vitest";
import { dashboardJson } from "../../src/domain/dashboard.ts";

const body = {
  weight: { latestKg: 80.5, weeklyAvgKg: 80.61, bodyFatPct: null, note: "after run", trend: [{ ts: 1_795_600_000_000, kg: 80.5 }] },
  targets: null,
  measurementsLatest: [{ site: "waist", valueCm: 82, ts: 1_795_600_000_000 }],
  shoulderToWaist: null,
};
const workouts = { from: "2026-11-23", to: "2026-11-29", count: 1, durationS: 1800, distanceM: 5000, energyKcal: 320 };

describe("dashboardJson", () => {
  it("writes body-metrics' members first, then the day's food and the week's workouts, in the interface's order", () => {
    const nutrition = { userEmail: "a@example.com", date: "2026-11-27", kcal: 1900, proteinG: 160, fatG: 70, carbsG: 180, fiberG: 25, macrosUnknownItems: 0, hitProtein: true, adherence: "on" };
    const trend = { trendKg: 80.72, weeklyRateKg: -0.41 };
    const text = dashboardJson({ body: JSON.stringify(body), nutrition: JSON.stringify(nutrition), workouts: JSON.stringify(workouts), trend: JSON.stringify(trend) });
    const parsed = JSON.parse(text) as Dashboard;
    expect(parsed).toEqual({ ...body, weight: { ...trend, ...body.weight }, nutritionToday: nutrition, workoutsThisWeek: workouts });
    expect(Object.keys(parsed)).toEqual(Object.keys(Dashboard.shape));
    expect(Object.keys(parsed.weight!)).toEqual(Object.keys(Dashboard.shape.weight.unwrap().shape));
    expect(Dashboard.strict().safeParse(parsed).success).toBe(true);
  });

  it("keeps a day without food as null", () => {
    const parsed = JSON.parse(dashboardJson({ body: JSON.stringify(body), nutrition: "null", workouts: JSON.stringify(workouts), trend: null })) as Dashboard;
    expect(parsed.nutritionToday).toBeNull();
  });

  it("gives the weight a null trend and rate when insights did not answer, and leaves a null weight null", () => {
    const parsed = JSON.parse(dashboardJson({ body: JSON.stringify(body), nutrition: "null", workouts: JSON.stringify(workouts), trend: null })) as Dashboard;
    expect(parsed.weight).toEqual({ trendKg: null, weeklyRateKg: null, ...body.weight });
    const noWeight = { ...body, weight: null };
    const trend = JSON.stringify({ trendKg: 80, weeklyRateKg: 0 });
    const empty = JSON.parse(dashboardJson({ body: JSON.stringify(noWeight), nutrition: "null", workouts: JSON.stringify(workouts), trend })) as Dashboard;
    expect(empty).toEqual({ ...noWeight, nutritionToday: null, workoutsThisWeek: workouts });
    expect(Dashboard.strict().safeParse(empty).success).toBe(true);
  });
});
