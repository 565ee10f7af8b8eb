import type { WeightSummary } from "@fit/contracts";

export interface Reading {
  ts: number;
  weightKg: number;
  bodyFatPct: number | null;
  note: string | null;
}

export const DAY_MS = 86_400_000;
export const WEEK_MS = 7 * DAY_MS;
const TREND_MS = 90 * DAY_MS;

/** The end (exclusive) of a UTC calendar day: readings of that day count as "up to" it. */
export const endOfDay = (date: string): number => Date.parse(`${date}T00:00:00.000Z`) + DAY_MS;

/** The first instant of the trend: the 90 days up to the day's end. */
export const trendStart = (dayEnd: number): number => dayEnd - TREND_MS;

/**
 * Everything a summary needs from the readings before the day's end, whatever their number: the newest
 * reading; the sum and count of the readings in the 7 days ending at it; and per UTC calendar day of the
 * trend window that has readings, its newest reading's time and the sum and count of its readings, oldest day
 * first. The store reads this from stored day sums (docs/decisions/0043-weight-day-roll-up.md), so the dashboard's
 * cost does not grow with the readings; `summarizeWeights` is the same over the readings themselves.
 */
export interface WeightAggregates {
  newest: Reading;
  week: { sum: number; count: number };
  days: DaySum[];
}

/** A UTC calendar day's readings: its newest reading's time, their sum and their count. */
export interface DaySum {
  ts: number;
  sum: number;
  count: number;
}

/** The number of the UTC calendar day an instant falls in, counted from 1970-01-01. */
export const dayNumber = (ts: number): number => Math.floor(ts / DAY_MS);

/**
 * The aggregates from the day sums the store reads: `days`, oldest first, are every day with readings from the
 * one after the week's first (partial) day on, `weekStart` that first day's readings after the week begins.
 */
export const aggregatesOfDays = (
  newest: Reading,
  weekStart: { day: number; sum: number; count: number },
  days: readonly DaySum[],
  dayEnd: number,
): WeightAggregates => {
  const week = { sum: weekStart.sum, count: weekStart.count };
  for (const day of days) {
    if (dayNumber(day.ts) <= weekStart.day) continue;
    week.sum += day.sum;
    week.count += day.count;
  }
  const trendFirstDay = dayNumber(trendStart(dayEnd));
  return { newest, week, days: days.filter((day) => dayNumber(day.ts) >= trendFirstDay) };
};

const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;

/** `readings` are any of the account's readings before `dayEnd`, in any order; null without any. */
const aggregateReadings = (readings: readonly Reading[], dayEnd: number): WeightAggregates | null => {
  if (readings.length === 0) return null;
  const ascending = [...readings].sort((a, b) => a.ts - b.ts);
  const newest = ascending.at(-1)!;
  const week = ascending.filter((r) => r.ts > newest.ts - WEEK_MS);
  const days = new Map<number, DaySum>();
  for (const r of ascending.filter((r) => r.ts >= trendStart(dayEnd))) {
    const day = dayNumber(r.ts);
    const point = days.get(day) ?? { ts: r.ts, sum: 0, count: 0 };
    days.set(day, { ts: r.ts, sum: point.sum + r.weightKg, count: point.count + 1 });
  }
  return { newest, week: { sum: week.reduce((sum, r) => sum + r.weightKg, 0), count: week.length }, days: [...days.values()] };
};

/**
 * Latest values come from the newest reading, the weekly average is the mean of the readings in the 7 days
 * ending at the newest one, and the trend is one point per day of the 90 days up to the day's end, oldest
 * first: `kg` the mean of that day's readings, `ts` its newest reading. At most 90 points whatever the number
 * of readings, so a scale posting every few minutes does not grow the dashboard.
 */
export const summaryOf = ({ newest, week, days }: WeightAggregates): WeightSummary => ({
  latestKg: newest.weightKg,
  weeklyAvgKg: round(week.sum / week.count, 2),
  bodyFatPct: newest.bodyFatPct,
  note: newest.note,
  trend: days.map(({ ts, sum, count }) => ({ ts, kg: round(sum / count, 2) })),
});

export const summarizeWeights = (readings: readonly Reading[], dayEnd: number): WeightSummary | null => {
  const aggregates = aggregateReadings(readings, dayEnd);
  return aggregates && summaryOf(aggregates);
};
