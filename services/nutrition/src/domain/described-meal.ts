import type { FoodEstimate, Meal } from "@fit/contracts";

interface Placement {
  accountId: string;
  date: string;
  meal: Meal | null;
}

/** The coach's estimates as food items, each keeping its macros (null where the estimate has none), range and source. */
export const itemsFromEstimates = (estimates: readonly FoodEstimate[], { accountId, date, meal }: Placement) =>
  estimates.map((estimate) => ({
    id: crypto.randomUUID(),
    accountId,
    date,
    meal,
    name: estimate.name,
    kcal: estimate.kcal,
    proteinG: estimate.proteinG,
    fatG: estimate.fatG,
    carbsG: estimate.carbsG,
    fiberG: estimate.fiberG,
    quantity: estimate.quantity,
    unit: estimate.unit,
    kcalLow: estimate.kcalRange.low,
    kcalHigh: estimate.kcalRange.high,
    proteinLow: estimate.proteinRange.low,
    proteinHigh: estimate.proteinRange.high,
    estimateSource: estimate.source,
  }));

interface LoggedItem {
  name: string;
  kcal: number;
  proteinG: number;
  quantity: number | null;
  unit: string | null;
  estimate: { kcal: { low: number; high: number } } | null;
}

// A portion named like the food ("2 egg") is not said twice.
const amount = ({ quantity, unit, name }: LoggedItem) => (quantity === null ? "" : `${quantity}${unit && unit !== name ? ` ${unit}` : ""} `);

/** Says what was logged and that the numbers are estimates; lists what could not be recognised. */
export const describeLogged = (items: readonly LoggedItem[], unrecognized: readonly string[]): string => {
  const lines = items.map((item) => {
    const range = item.estimate ? ` (likely ${item.estimate.kcal.low}–${item.estimate.kcal.high})` : "";
    return `- ${amount(item)}${item.name}: about ${item.kcal} kcal${range}, ${item.proteinG} g protein`;
  });
  const kcal = Math.round(items.reduce((sum, item) => sum + item.kcal, 0));
  const parts = [
    items.length > 0 ? `Logged ${items.length} item${items.length === 1 ? "" : "s"}, about ${kcal} kcal in all (estimates):` : "Nothing was logged.",
    ...lines,
  ];
  if (unrecognized.length > 0) {
    parts.push(`Not recognised, so not logged: ${unrecognized.map((text) => `"${text}"`).join(", ")}. Log those with their numbers.`);
  }
  return parts.join("\n");
};
