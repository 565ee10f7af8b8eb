// A day's fat, carbs and fiber beside its kcal and protein. Each is the sum over the items that give it, so
// while some items lack them the figures read as "at least" (docs/decisions/0067-day-macros-sum-what-is-known.md).
import type { DailyTotal, FoodItem } from "./types.ts";
import { round } from "./ui.tsx";

type MacroTotals = Pick<DailyTotal, "fatG" | "carbsG" | "fiberG" | "macrosUnknownItems">;
type ItemMacros = Pick<FoodItem, "fatG" | "carbsG" | "fiberG">;

const MACROS = [["fatG", "fat"], ["carbsG", "carbs"], ["fiberG", "fiber"]] as const;

/** The nutrition service's day sums, over the items a page already holds (a hidden, being-deleted item left out). */
export const macroTotalsOf = (items: readonly ItemMacros[]): MacroTotals => {
  const sum = (field: keyof ItemMacros) => {
    const known = items.map((item) => item[field]).filter((value): value is number => value !== null);
    return known.length ? known.reduce((total, value) => total + value, 0) : null;
  };
  return {
    fatG: sum("fatG"), carbsG: sum("carbsG"), fiberG: sum("fiberG"),
    macrosUnknownItems: items.filter((item) => MACROS.some(([field]) => item[field] === null)).length,
  };
};

/** Whether any item gave a fat, carbs or fiber figure: a day logged with kcal and protein only shows no macros line. */
export const givesMacros = (totals: MacroTotals) => MACROS.some(([field]) => totals[field] !== null);

/** `12 g fat · 40 g carbs · – fiber`, as "at least" with how many items these leave out. */
export const macrosInWords = (totals: MacroTotals) => {
  const sums = MACROS.map(([field, word]) => `${totals[field] === null ? "–" : `${round(totals[field] ?? 0, 0)} g`} ${word}`).join(" · ");
  const unknown = totals.macrosUnknownItems;
  return unknown === 0 ? sums : `at least ${sums} (${unknown} item${unknown === 1 ? "" : "s"} without them)`;
};
