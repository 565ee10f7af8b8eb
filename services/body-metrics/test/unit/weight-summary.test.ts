import { describe, expect, it } from "vitest";
import { DAY_MS, endOfDay, summarizeWeights } from "../../src/domain/weight-summary.ts";
import { shoulderToWaist } from "../../src/domain/measurements.ts";

const day = (date: string, hour = 8) => Date.parse(`${date}T${String(hour).padStart(2, "0")}:00:00.000Z`);
const reading = (ts: number, weightKg: number, extra: Partial<{ bodyFatPct: number; note: string }> = {}) => ({
  ts, weightKg, bodyFatPct: extra.bodyFatPct ?? null, note: extra.note ?? null,
});

describe("weight summary", () => {
  it("is null when there are no readings", () => {
    expect(summarizeWeights([], endOfDay("2026-11-22"))).toBeNull();
  });

  it("takes latest, body fat and note from the newest reading whatever the input order", () => {
    const summary = summarizeWeights(
      [reading(day("2026-11-20"), 80, { note: "old" }), reading(day("2026-11-22"), 79, { bodyFatPct: 18, note: "new" }), reading(day("2026-11-21"), 81)],
      endOfDay("2026-11-22"),
    );
    expect(summary).toMatchObject({ latestKg: 79, bodyFatPct: 18, note: "new" });
  });

  it("averages only the readings of the 7 days ending at the newest one", () => {
    const newest = day("2026-11-22");
    const readings = [
      reading(newest - 7 * DAY_MS, 100), // exactly 7 days before: outside the window
      reading(newest - 6 * DAY_MS, 80),
      reading(newest - DAY_MS, 82),
      reading(newest, 84),
    ];
    expect(summarizeWeights(readings, endOfDay("2026-11-22"))?.weeklyAvgKg).toBe(82);
  });

  it("lists the trend oldest first and only within 90 days of the day's end", () => {
    const end = endOfDay("2026-11-22");
    const readings = [reading(end - 91 * DAY_MS, 90), reading(end - 89 * DAY_MS, 88), reading(end - DAY_MS, 85)];
    const trend = summarizeWeights(readings, end)?.trend;
    expect(trend).toEqual([{ ts: end - 89 * DAY_MS, kg: 88 }, { ts: end - DAY_MS, kg: 85 }]);
  });

  it("gives one trend point per UTC day: the day's mean, at its newest reading", () => {
    const readings = [reading(day("2026-11-21", 23), 80), reading(day("2026-11-21", 7), 81.5), reading(day("2026-11-21", 12), 80.2)];
    readings.push(reading(day("2026-11-22", 0), 79), reading(day("2026-11-22", 6), 79.4));
    expect(summarizeWeights(readings, endOfDay("2026-11-22"))?.trend).toEqual([
      { ts: day("2026-11-21", 23), kg: 80.57 },
      { ts: day("2026-11-22", 6), kg: 79.2 },
    ]);
  });

  it("keeps at most 90 points however many readings there are", () => {
    const end = endOfDay("2026-11-22");
    const everyHour = Array.from({ length: 120 * 24 }, (_, i) => reading(end - 1 - i * 3_600_000, 70 + (i % 10)));
    const trend = summarizeWeights(everyHour, end)?.trend ?? [];
    expect(trend).toHaveLength(90);
    expect(trend.every((point, i) => i === 0 || point.ts - (trend[i - 1]?.ts ?? 0) === DAY_MS)).toBe(true);
  });
});

describe("shoulder-to-waist ratio", () => {
  it("is shoulders over waist to 3 decimals", () => {
    expect(shoulderToWaist([{ site: "waist", valueCm: 81 }, { site: "shoulders", valueCm: 120 }])).toBe(1.481);
  });

  it("is null when either site is missing", () => {
    expect(shoulderToWaist([{ site: "waist", valueCm: 81 }])).toBeNull();
    expect(shoulderToWaist([{ site: "shoulders", valueCm: 120 }, { site: "chest", valueCm: 100 }])).toBeNull();
  });
});
