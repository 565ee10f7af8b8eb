import type { Targets, WeightSummary } from "@fit/contracts";
import { sum, tenth } from "./numbers.ts";

const WEEK_MS = 7 * 86_400_000;

/** What the coach knows of the caller, read over the bus; a source that did not answer is named in `missing`. */
export interface Grounding {
  date: string;
  targets: { dailyKcalTarget: number | null; proteinTargetG: number | null; goalWeightKg: number | null } | null;
  weight: { latestKg: number; weeklyAvgKg: number; changeKgPerWeek: number | null; note: string | null } | null;
  intake: { kcal: number; proteinG: number; items: { name: string; kcal: number; proteinG: number }[] } | null;
  missing: string[];
}

const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;

/** This week's mean against the week before's, from the daily trend; null without readings in both weeks. */
export const weeklyChange = (trend: WeightSummary["trend"]): number | null => {
  const newest = trend.at(-1);
  if (!newest) return null;
  const thisWeek = trend.filter((p) => p.ts > newest.ts - WEEK_MS).map((p) => p.kg);
  const weekBefore = trend.filter((p) => p.ts <= newest.ts - WEEK_MS && p.ts > newest.ts - 2 * WEEK_MS).map((p) => p.kg);
  if (weekBefore.length === 0) return null;
  return Math.round((mean(thisWeek) - mean(weekBefore)) * 100) / 100;
};

export const weightGrounding = (summary: WeightSummary | null): Grounding["weight"] =>
  summary && {
    latestKg: summary.latestKg,
    weeklyAvgKg: summary.weeklyAvgKg,
    changeKgPerWeek: weeklyChange(summary.trend),
    note: summary.note,
  };

export const targetsGrounding = (targets: Targets | null): Grounding["targets"] =>
  targets && { dailyKcalTarget: targets.dailyKcalTarget, proteinTargetG: targets.proteinTargetG, goalWeightKg: targets.goalWeightKg };

/** The day's intake as the sum of its logged items (what nutrition's daily total rolls up, read without the lag). */
export const intakeGrounding = (items: NonNullable<Grounding["intake"]>["items"]): Grounding["intake"] => ({
  kcal: tenth(sum(items, (i) => i.kcal)),
  proteinG: tenth(sum(items, (i) => i.proteinG)),
  items,
});
