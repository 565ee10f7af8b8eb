import { describe, expect, it } from "vitest";
import { addDays } from "../../src/domain/calendar.ts";
import { estimateExpenditure, type IntakeDay, type Profile } from "../../src/domain/expenditure.ts";
import { trendSeries, type Reading } from "../../src/domain/trend.ts";

const START = "2026-01-01";
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const readingsOn = (days: number[], kg: (day: number) => number): Reading[] => days.map((day) => ({ date: addDays(START, day), kg: kg(day) }));
const intakeOn = (days: number[], kcal: (day: number) => number, counted = true): IntakeDay[] => days.map((day) => ({ date: addDays(START, day), kcal: kcal(day), counted }));
/** A man of 40 on 2026-01-01, 180 cm, moderately active. */
const MAN: Profile = { heightCm: 180, birthYear: 1986, sex: "male", activityLevel: "moderate" };

/** `days` days of a person eating `kcal` and losing `kgPerDay`, weighed every morning without noise. */
function steadyPerson(days: number, kcal: number, kgPerDay: number) {
  const trend = trendSeries(readingsOn(range(0, days - 1), (day) => 90 - kgPerDay * day));
  return { trend, intake: intakeOn(range(0, days - 1), () => kcal), asOf: addDays(START, days - 1), latestKg: trend.at(-1)!.kg };
}

describe("expenditure", () => {
  it("is null without any weight", () => {
    expect(estimateExpenditure({ trend: [], intake: intakeOn([0], () => 2000), profile: MAN, latestKg: null, asOf: START })).toBeNull();
  });

  it("is Mifflin–St Jeor × the activity factor without counted days, with a range of ±1.645 × 14 %", () => {
    // (10 × 80 + 6.25 × 180 − 5 × 40 + 5) × 1.55 = 2 681.5; SD 0.14 × 2 681.5 = 375.4; ± 617.6.
    const estimate = estimateExpenditure({ trend: trendSeries(readingsOn([0, 1, 2], () => 80)), intake: [], profile: MAN, latestKg: 80, asOf: addDays(START, 2) });
    expect(estimate).toEqual({ kcal: 2680, low: 2060, high: 3300, confidence: "formula", daysCounted: 0, method: expect.stringContaining("Mifflin–St Jeor × 1.55") as string });
  });

  it("fills a missing profile with adult defaults and widens the range for each missing field", () => {
    // (10 × 70 + 6.25 × 170 − 5 × 40 − 78) × 1.375 = 2 041.2; SD √(0.14² + 0.1² + 0.05² + 0.05² + 0.03²) = 18.84 %.
    const estimate = estimateExpenditure({ trend: [], intake: [], profile: {}, latestKg: 70, asOf: START });
    expect(estimate).toMatchObject({ kcal: 2040, low: 1410, high: 2670, confidence: "formula" });
  });

  it("stays the formula's with a single reading, counting the days logged", () => {
    const estimate = estimateExpenditure({ trend: trendSeries([{ date: START, kg: 80 }]), intake: intakeOn([0], () => 1800), profile: MAN, latestKg: 80, asOf: START });
    expect(estimate).toMatchObject({ kcal: 2680, confidence: "formula", daysCounted: 1 });
  });

  it("moves to intake + 7 700 kcal per kg lost as days accumulate, its range narrowing", () => {
    // 2 000 kcal a day and 0.5 kg a week lost: 2 000 + 0.5 / 7 × 7 700 = 2 550 kcal.
    const early = estimateExpenditure({ ...steadyPerson(14, 2000, 0.5 / 7), profile: MAN })!;
    const late = estimateExpenditure({ ...steadyPerson(56, 2000, 0.5 / 7), profile: MAN })!;
    expect(Math.abs(late.kcal - 2550)).toBeLessThanOrEqual(40);
    expect(late.low).toBeLessThan(2550);
    expect(late.high).toBeGreaterThan(2550);
    expect(late.daysCounted).toBe(56);
    expect(late.confidence).not.toBe("formula");
    expect(late.method).toContain("energy balance");
    expect(late.high - late.low).toBeLessThan(early.high - early.low);
  });

  it("does not read a day that is not counted as a day without food", () => {
    // Steady weight on 2 500 kcal counted days; every fifth day holds a partial 300 kcal log marked not counted.
    const days = range(0, 55);
    const counted = days.filter((day) => day % 5 !== 0);
    const uncounted = days.filter((day) => day % 5 === 0);
    const estimate = estimateExpenditure({
      trend: trendSeries(readingsOn(days, () => 80)),
      intake: [...intakeOn(counted, () => 2500), ...intakeOn(uncounted, () => 300, false)],
      profile: MAN, latestKg: 80, asOf: addDays(START, 55),
    })!;
    expect(Math.abs(estimate.kcal - 2500)).toBeLessThanOrEqual(40);
    expect(estimate.daysCounted).toBe(counted.length);
  });

  it("leaves a formula far off behind within three weeks, its range holding the truth", () => {
    // The formula says 2 680 kcal; the weight holds steady on 3 800 kcal a day.
    const days = range(0, 20);
    const readings = readingsOn(days, (day) => 80 + (day % 2 === 0 ? 0.5 : -0.5));
    const estimate = estimateExpenditure({ trend: trendSeries(readings), intake: intakeOn(days, () => 3800), profile: MAN, latestKg: 80, asOf: addDays(START, 20) })!;
    expect(estimate.kcal).toBeGreaterThan(3500);
    expect(estimate.high).toBeGreaterThanOrEqual(3800);
  });

  it("uses nothing after the date asked", () => {
    const person = steadyPerson(56, 2000, 0.5 / 7);
    const asOf = addDays(START, 41);
    const upToDate = { ...person, asOf, profile: MAN };
    const cut = { ...upToDate, trend: person.trend.filter((point) => point.date <= asOf), intake: person.intake.filter((day) => day.date <= asOf) };
    expect(estimateExpenditure(upToDate)).toEqual(estimateExpenditure(cut));
  });

  it("follows a change of expenditure within weeks", () => {
    // 2 500 kcal burnt for 8 weeks, then 2 900 (weight steady on 2 500 kcal, then losing 400 / 7 700 kg a day).
    const kg = (day: number) => (day < 56 ? 85 : 85 - ((day - 56) * 400) / 7700);
    const days = range(0, 97);
    const estimate = estimateExpenditure({ trend: trendSeries(readingsOn(days, kg)), intake: intakeOn(days, () => 2500), profile: MAN, latestKg: kg(97), asOf: addDays(START, 97) })!;
    expect(Math.abs(estimate.kcal - 2900)).toBeLessThanOrEqual(100);
  });
});
