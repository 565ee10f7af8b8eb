// A food of the database and a portion of it as the numbers the server will store: the same arithmetic as the
// nutrition service (per-100 g values scaled by the portion's grams, unknown stays unknown), so the preview is
// what gets logged.
import type { Food, FoodPortionChoice } from "./types.ts";

/** What the amount counts: grams, or one of the food's household measures by its id. */
export type PortionKind = { grams: true } | { measure: number };

const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;

export const gramsOf = (food: Food, kind: PortionKind, amount: number): number | null => {
  if ("grams" in kind) return amount;
  const portion = food.portions.find((p) => p.id === kind.measure);
  return portion ? round(portion.grams * amount, 2) : null;
};

export const choiceOf = (kind: PortionKind, amount: number): FoodPortionChoice =>
  "grams" in kind ? { grams: amount } : { measure: kind.measure, count: amount };

export interface PortionNumbers {
  kcal: number | null;
  proteinG: number | null;
  fatG: number | null;
  carbsG: number | null;
  fiberG: number | null;
}

export const nutrientsOf = (food: Food, grams: number): PortionNumbers => {
  const scale = (value: number | null, places: number) => (value === null ? null : round((value * grams) / 100, places));
  const per = food.per100g;
  return { kcal: scale(per.kcal, 1), proteinG: scale(per.proteinG, 2), fatG: scale(per.fatG, 2), carbsG: scale(per.carbsG, 2), fiberG: scale(per.fiberG, 2) };
};

/** "1 cup, chopped (160 g)": how a person recognises a measure. */
export const measureLabel = (portion: Food["portions"][number]) => `${portion.amount} ${portion.unit} (${portion.grams} g)`;
