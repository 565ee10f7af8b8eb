import type { Insights, Targets, WeightSummary } from "@fit/contracts";
import { sum, tenth } from "./numbers.ts";

/** Trend, rate, goal date and expenditure as insights computes them (docs/decisions/0075-counted-days-and-insights-in-the-dashboard.md). */
export interface Progress {
  trendKg: number | null;
  weeklyRateKg: number | null;
  goal: { goalWeightKg: number; targetDate: string | null; goalDate: string | null } | null;
  expenditure: { kcal: number; low: number; high: number; confidence: string; daysCounted: number } | null;
  /** What the data is too thin to judge, in words; empty when it judges everything. */
  tooThin: string[];
}

/** What the coach knows of the caller, read over the bus; a source that did not answer is named in `missing`. */
export interface Grounding {
  date: string;
  targets: { dailyKcalTarget: number | null; proteinTargetG: number | null; goalWeightKg: number | null } | null;
  weight: { latestKg: number; note: string | null } | null;
  progress: Progress | null;
  intake: { kcal: number; proteinG: number; items: { name: string; kcal: number; proteinG: number }[] } | null;
  missing: string[];
}

const days = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;

export const weightGrounding = (summary: WeightSummary | null): Grounding["weight"] => summary && { latestKg: summary.latestKg, note: summary.note };

/**
 * The insights as the coach is to use them: trend and rate rather than raw means, and, where the data cannot carry
 * a judgement yet, saying so: no rate under a week of trend, an expenditure still the formula's under a week of
 * counted food days.
 */
export const progressGrounding = (insights: Insights): Progress => {
  const weighIns = insights.trend.filter((point) => point.kg !== null).length;
  const { expenditure } = insights;
  const tooThin = [
    ...(insights.weeklyRateKg === null ? [`weekly rate: too little data to judge: ${days(weighIns, "day")} of weigh-ins`] : []),
    ...(expenditure === null || expenditure.confidence === "formula"
      ? [`expenditure: too little data to judge: ${days(expenditure?.daysCounted ?? 0, "counted food day")}; the figure is the profile's formula`]
      : []),
  ];
  return {
    trendKg: insights.trendKg,
    weeklyRateKg: insights.weeklyRateKg,
    goal: insights.goal,
    expenditure: expenditure && {
      kcal: expenditure.kcal, low: expenditure.low, high: expenditure.high, confidence: expenditure.confidence, daysCounted: expenditure.daysCounted,
    },
    tooThin,
  };
};

export const targetsGrounding = (targets: Targets | null): Grounding["targets"] =>
  targets && { dailyKcalTarget: targets.dailyKcalTarget, proteinTargetG: targets.proteinTargetG, goalWeightKg: targets.goalWeightKg };

/** The day's intake as the sum of its logged items (what nutrition's daily total rolls up, read without the lag). */
export const intakeGrounding = (items: NonNullable<Grounding["intake"]>["items"]): Grounding["intake"] => ({
  kcal: tenth(sum(items, (i) => i.kcal)),
  proteinG: tenth(sum(items, (i) => i.proteinG)),
  items,
});
