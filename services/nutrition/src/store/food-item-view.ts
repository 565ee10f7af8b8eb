import type { Meal } from "@fit/contracts";
import type { FoodItem as Row } from "./generated/client.ts";

export const foodItemView = (row: Row) => ({
  id: row.id,
  date: row.date,
  name: row.name,
  kcal: row.kcal,
  proteinG: row.proteinG,
  carbsG: row.carbsG,
  fatG: row.fatG,
  quantity: row.quantity,
  unit: row.unit,
  meal: row.meal as Meal | null,
  note: row.note,
  createdAt: row.createdAt.getTime(),
  updatedAt: row.updatedAt.getTime(),
});
