import { describe, expect, it } from "vitest";
import { addDays } from "../../src/domain/calendar.ts";
import { goalDate, readingSdKg, trendSeries, weeklyRate, type Reading } from "../../src/domain/trend.ts";

const START = "2026-01-01";
/** Readings on the given day offsets from START, each `kg(day)`. */
const readingsOn = (days: number[], kg: (day: number) => number): Reading[] => days.map((day) => ({ date: addDays(START, day), kg: kg(day) }));
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe("trend series", () => {
  it("is empty without readings", () => {
    expect(trendSeries([])).toEqual([]);
  });

  it("is the reading itself for a single reading", () => {
    expect(trendSeries([{ date: START, kg: 81.4 }])).toEqual([{ date: START, trendKg: 81.4, kg: 81.4 }]);
  });

  it("has a point for every calendar day of a gap, with no reading on it, and does not read the gap as weights", () => {
    const trend = trendSeries(readingsOn([0, 1, 2, 6, 7], () => 80));
    expect(trend.map((point) => point.date)).toEqual(range(0, 7).map((day) => addDays(START, day)));
    expect(trend.map((point) => point.kg)).toEqual([80, 80, 80, null, null, null, 80, 80]);
    for (const point of trend) expect(point.trendKg).toBeCloseTo(80, 9);
  });

  it("orders readings given in any order", () => {
    const readings = readingsOn([0, 1, 2, 3], (day) => 80 - day * 0.1);
    expect(trendSeries([...readings].reverse())).toEqual(trendSeries(readings));
  });

  it("follows a steady loss without lag, also across a week without readings", () => {
    const days = [...range(0, 9), ...range(17, 29)];
    const trend = trendSeries(readingsOn(days, (day) => 80 - 0.1 * day));
    expect(trend).toHaveLength(30);
    for (const [day, point] of trend.entries()) expect(Math.abs(point.trendKg - (80 - 0.1 * day))).toBeLessThan(0.05);
  });

  it("averages day-to-day water swings out", () => {
    // ±0.7 kg on alternate days around a steady 80 kg.
    const trend = trendSeries(readingsOn(range(0, 29), (day) => 80 + (day % 2 === 0 ? 0.7 : -0.7)));
    expect(Math.abs(trend.at(-1)!.trendKg - 80)).toBeLessThan(0.2);
  });

  it("follows a new level faster when readings are said to be precise", () => {
    const readings = readingsOn(range(0, 20), (day) => (day < 14 ? 80 : 78));
    const precise = trendSeries(readings, { readingSdKg: 0.1 }).at(-1)!.trendKg;
    const noisy = trendSeries(readings, { readingSdKg: 1.5 }).at(-1)!.trendKg;
    expect(Math.abs(precise - 78)).toBeLessThan(0.2);
    expect(noisy).toBeGreaterThan(precise + 0.3);
  });
});

describe("reading SD", () => {
  it("measures alternating ±0.5 kg as ~1 kg differences, blended with the 0.7 kg default by their count", () => {
    // 29 pairs with |difference| 1.0: 1.0 × 1.4826 / √2 = 1.0483; √((29 × 1.0483² + 6 × 0.7²) / 35) = 0.9973.
    expect(readingSdKg(readingsOn(range(0, 29), (day) => 80 + (day % 2 === 0 ? 0.5 : -0.5)))).toBeCloseTo(0.9973, 3);
  });

  it("is the default without consecutive days, and counts no pair across a gap", () => {
    expect(readingSdKg(readingsOn([0, 2, 4], (day) => 80 + day))).toBe(0.7);
  });
});

describe("weekly rate", () => {
  const losing = trendSeries(readingsOn(range(0, 29), (day) => 80 - 0.1 * day));

  it("is the trend's change over the last 14 days, per week", () => {
    const rate = weeklyRate(losing, addDays(START, 29))!;
    expect(rate.windowDays).toBe(14);
    expect(rate.kgPerWeek).toBeCloseTo(-0.7, 2);
  });

  it("ends at the last point on or before the date asked", () => {
    expect(weeklyRate(losing, addDays(START, 60))).toEqual(weeklyRate(losing, addDays(START, 29)));
    const earlier = weeklyRate(losing, addDays(START, 10))!;
    expect(earlier.windowDays).toBe(10);
    expect(earlier.kgPerWeek).toBeCloseTo(-0.7, 1);
  });

  it("is null under a week of trend, or before the first point", () => {
    expect(weeklyRate(losing, addDays(START, 6))).toBeNull();
    expect(weeklyRate(losing, addDays(START, -1))).toBeNull();
    expect(weeklyRate(trendSeries([{ date: START, kg: 80 }]), START)).toBeNull();
    expect(weeklyRate(losing, addDays(START, 7))?.windowDays).toBe(7);
  });
});

describe("goal date", () => {
  it("is when the rate reaches the goal", () => {
    expect(goalDate(80, -0.5, 75, START)).toBe("2026-03-12"); // 5 kg / 0.5 kg a week = 70 days
    expect(goalDate(60, 0.25, 62, START)).toBe("2026-02-26"); // 2 kg / 0.25 kg a week = 56 days
  });

  it("is the day itself at the goal", () => {
    expect(goalDate(75.2, -0.5, 75, START)).toBe(START);
  });

  it("is null when moving away, not moving, or years off", () => {
    expect(goalDate(80, 0.3, 75, START)).toBeNull();
    expect(goalDate(80, -0.3, 85, START)).toBeNull();
    expect(goalDate(80, -0.01, 75, START)).toBeNull();
    expect(goalDate(100, -0.1, 60, START)).toBeNull(); // 400 weeks
  });
});
