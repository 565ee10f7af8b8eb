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
    const text = dashboardJson({ body: JSON.stringify(body), nutrition: JSON.stringify(nutrition), workouts: JSON.stringify(workouts) });
    const parsed: unknown = JSON.parse(text);
    expect(parsed).toEqual({ ...body, nutritionToday: nutrition, workoutsThisWeek: workouts });
    expect(Object.keys(parsed as object)).toEqual(Object.keys(Dashboard.shape));
    expect(Dashboard.strict().safeParse(parsed).success).toBe(true);
  });

  it("keeps a day without food as null", () => {
    const parsed = JSON.parse(dashboardJson({ body: JSON.stringify(body), nutrition: "null", workouts: JSON.stringify(workouts) })) as Dashboard;
    expect(parsed.nutritionToday).toBeNull();
  });
});
