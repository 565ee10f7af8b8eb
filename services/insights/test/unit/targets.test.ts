import { describe, expect, it } from "vitest";
import type { Expenditure, Profile } from "../../src/domain/expenditure.ts";
import { dailyProteinG, suggestTargets } from "../../src/domain/targets.ts";

const AS_OF = "2026-01-01";
const burning = (kcal: number): Expenditure => ({ kcal, low: kcal - 200, high: kcal + 200, confidence: "medium", daysCounted: 30, method: "test" });
const MAN: Profile = { heightCm: 180, sex: "male" };
const WOMAN: Profile = { heightCm: 165, sex: "female" };

describe("suggested targets", () => {
  it("reaches the goal by the date at the rate it needs", () => {
    // 5 kg in 70 days = 0.5 kg a week = 550 kcal a day under 2 500; protein 1.6 × 80 kg = 128 → 130 g.
    expect(suggestTargets({ expenditure: burning(2500), trendKg: 80, goalKg: 75, targetDate: "2026-03-12", asOf: AS_OF, profile: MAN }))
      .toEqual({ dailyKcal: 1950, dailyProteinG: 130, weeklyRateKg: -0.5, reachable: true, reason: null });
  });

  it("holds at 1 % of body weight a week when the date needs faster, and says when the goal comes at that pace", () => {
    // 10 kg in 35 days = 2 kg a week; at 0.8 kg a week: 2 500 − 880 = 1 620 kcal, 10 / 0.8 × 7 = 87.5 → 88 days.
    const targets = suggestTargets({ expenditure: burning(2500), trendKg: 80, goalKg: 70, targetDate: "2026-02-05", asOf: AS_OF, profile: MAN });
    expect(targets).toMatchObject({ dailyKcal: 1620, weeklyRateKg: -0.8, reachable: false });
    expect(targets.reason).toBe(
      "Reaching 70.0 kg by 2026-02-05 needs losing 2.0 kg a week, more than 1 % of body weight (0.8 kg) a week. At 0.8 kg a week it is reached about 2026-03-30.",
    );
  });

  it("holds at the minimum intake by sex, at the slower pace that gives", () => {
    // 1 600 − 550 = 1 050 < 1 200; at 1 200 kcal: 400 / 7 700 × 7 = 0.36 kg a week, 5 kg in 96.25 → 97 days.
    const targets = suggestTargets({ expenditure: burning(1600), trendKg: 60, goalKg: 55, targetDate: "2026-03-12", asOf: AS_OF, profile: WOMAN });
    expect(targets).toMatchObject({ dailyKcal: 1200, weeklyRateKg: -0.36, reachable: false });
    expect(targets.reason).toBe("It would mean eating 1050 kcal a day, below the minimum of 1200 kcal. At 0.4 kg a week it is reached about 2026-04-08.");
    expect(suggestTargets({ expenditure: burning(1600), trendKg: 60, goalKg: 55, targetDate: "2026-03-12", asOf: AS_OF, profile: { sex: "male" } }).dailyKcal).toBe(1500);
  });

  it("says so when even the minimum intake would not bring a loss", () => {
    const targets = suggestTargets({ expenditure: burning(1150), trendKg: 50, goalKg: 47, targetDate: null, asOf: AS_OF, profile: WOMAN });
    expect(targets).toMatchObject({ dailyKcal: 1200, weeklyRateKg: 0, reachable: false });
    expect(targets.reason).toContain("At 1200 kcal a day you would not lose weight: your expenditure is about 1150 kcal.");
  });

  it("holds a gain at 0.5 % of body weight a week", () => {
    // 5 kg in 70 days = 0.5 kg a week; at most 0.3 kg a week: 2 500 + 330 = 2 830 kcal.
    const targets = suggestTargets({ expenditure: burning(2500), trendKg: 60, goalKg: 65, targetDate: "2026-03-12", asOf: AS_OF, profile: MAN });
    expect(targets).toMatchObject({ dailyKcal: 2830, weeklyRateKg: 0.3, reachable: false });
    expect(targets.reason).toContain("needs gaining 0.5 kg a week, more than 0.5 % of body weight (0.3 kg) a week");
  });

  it("suggests half the fastest pace without a target date", () => {
    // 0.5 % of 80 kg = 0.4 kg a week: 2 500 − 440 = 2 060 kcal.
    expect(suggestTargets({ expenditure: burning(2500), trendKg: 80, goalKg: 75, targetDate: null, asOf: AS_OF, profile: MAN }))
      .toMatchObject({ dailyKcal: 2060, weeklyRateKg: -0.4, reachable: true, reason: null });
  });

  it("holds the weight at the goal", () => {
    expect(suggestTargets({ expenditure: burning(2437), trendKg: 75.1, goalKg: 75, targetDate: "2026-03-12", asOf: AS_OF, profile: MAN }))
      .toEqual({ dailyKcal: 2440, dailyProteinG: 120, weeklyRateKg: 0, reachable: true, reason: null });
  });

  it("says when the target date has passed", () => {
    const targets = suggestTargets({ expenditure: burning(2500), trendKg: 80, goalKg: 75, targetDate: AS_OF, asOf: AS_OF, profile: MAN });
    expect(targets).toMatchObject({ dailyKcal: 2500, weeklyRateKg: 0, reachable: false, reason: "The target date 2026-01-01 has passed; set a new one." });
  });
});

describe("protein", () => {
  it("is 1.6 g per kg, of the weight at BMI 25 for a heavier person of known height, in 5 g steps", () => {
    expect(dailyProteinG(120, { heightCm: 170 })).toBe(115); // 25 × 1.7² = 72.25 kg × 1.6 = 115.6
    expect(dailyProteinG(120, {})).toBe(190); // 192
    expect(dailyProteinG(60, { heightCm: 170 })).toBe(95); // 96
  });
});
