import type { Meal } from "@fit/contracts";
import type { FoodItem as Row } from "./generated/client.ts";

/** The estimate columns are all set or all null (one write sets them together, a hand correction clears them). */
const estimateView = (row: Row) =>
  row.estimateSource === null
    ? null
    : {
        kcal: { low: row.kcalLow ?? row.kcal, high: row.kcalHigh ?? row.kcal },
        proteinG: { low: row.proteinLow ?? row.proteinG, high: row.proteinHigh ?? row.proteinG },
        source: row.estimateSource,
      };

export const foodItemView = (row: Row) => ({
  id: row.id,
  date: row.date,
  name: row.name,
  kcal: row.kcal,
  proteinG: row.proteinG,
  carbsG: row.carbsG,
  fatG: row.fatG,
  fiberG: row.fiberG,
  quantity: row.quantity,
  unit: row.unit,
  meal: row.meal as Meal | null,
  note: row.note,
  estimate: estimateView(row),
  source: row.source,
  grams: row.grams,
  createdAt: row.createdAt.getTime(),
  updatedAt: row.updatedAt.getTime(),
});
