import type { DayMark, NutritionDay } from "@fit/contracts";

/**
 * Whether a day's intake is the whole day's: marked `complete` it is, however little is logged; `excluded` it is
 * not; unmarked it is when anything is logged, since a day without items is unknown, never zero
 * (docs/decisions/0075-counted-days-and-insights-in-the-dashboard.md).
 */
export const counts = (mark: DayMark, itemCount: number): boolean => (mark === "auto" ? itemCount > 0 : mark === "complete");

/** The stored mark (null: none) as the API names it. */
export const markOf = (stored: string | null): DayMark => (stored === "complete" || stored === "excluded" ? stored : "auto");

export const nutritionDay = (date: string, stored: string | null, itemCount: number, kcal: number): NutritionDay => {
  const mark = markOf(stored);
  return { date, mark, counted: counts(mark, itemCount), itemCount, kcal: Math.round(kcal * 10) / 10 };
};
