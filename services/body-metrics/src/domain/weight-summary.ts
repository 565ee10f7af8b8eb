import type { WeightSummary } from "@fit/contracts";

export interface Reading {
  ts: number;
  weightKg: number;
  bodyFatPct: number | null;
  note: string | null;
}

export const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;
const TREND_MS = 90 * DAY_MS;

/** The end (exclusive) of a UTC calendar day: readings of that day count as "up to" it. */
export const endOfDay = (date: string): number => Date.parse(`${date}T00:00:00.000Z`) + DAY_MS;

const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;

/**
 * One point per UTC calendar day that has readings: `kg` the mean of that day's readings, `ts` its newest
 * reading. At most 90 points whatever the number of readings, so a scale posting every few minutes does
 * not grow the dashboard. `ascending` is sorted by time.
 */
const dailyPoints = (ascending: readonly Reading[]) => {
  const days = new Map<number, { ts: number; sum: number; count: number }>();
  for (const r of ascending) {
    const day = Math.floor(r.ts / DAY_MS);
    const point = days.get(day) ?? { ts: r.ts, sum: 0, count: 0 };
    days.set(day, { ts: r.ts, sum: point.sum + r.weightKg, count: point.count + 1 });
  }
  return [...days.values()].map(({ ts, sum, count }) => ({ ts, kg: round(sum / count, 2) }));
};

/**
 * Latest values come from the newest reading, the weekly average is the mean of the readings in the 7 days
 * ending at the newest one, and the trend is one point per day of the 90 days up to the day's end, oldest
 * first. `readings` are those of the window [min(newest - 7 d, dayEnd - 90 d), dayEnd), any order.
 */
export const summarizeWeights = (readings: readonly Reading[], dayEnd: number): WeightSummary | null => {
  if (readings.length === 0) return null;
  const ascending = [...readings].sort((a, b) => a.ts - b.ts);
  const newest = ascending.at(-1)!;
  const week = ascending.filter((r) => r.ts > newest.ts - WEEK_MS);
  const weeklyAvgKg = week.reduce((sum, r) => sum + r.weightKg, 0) / week.length;
  return {
    latestKg: newest.weightKg,
    weeklyAvgKg: round(weeklyAvgKg, 2),
    bodyFatPct: newest.bodyFatPct,
    note: newest.note,
    trend: dailyPoints(ascending.filter((r) => r.ts >= dayEnd - TREND_MS)),
  };
};

/** The earliest reading time the summary needs, given the newest reading before the day's end. */
export const summaryWindowStart = (newestTs: number, dayEnd: number): number =>
  Math.min(newestTs - WEEK_MS, dayEnd - TREND_MS);
