// A food of the database and a chosen portion become the numbers of a food item: per-100 g values scaled by the
// portion's grams; an unknown value stays unknown (null), never 0.
import { AppError, type FoodPortionChoice } from "@fit/contracts";

export interface PortionRow {
  id: number;
  amount: number;
  unit: string;
  grams: number;
}

export interface FoodPer100g {
  kcal: number | null;
  proteinG: number | null;
  fatG: number | null;
  carbsG: number | null;
  fiberG: number | null;
}

/** SR Legacy calls a serving `serving`, `NLEA serving`, `serving (1 bar)`… */
const isServing = (portion: PortionRow) => /\bserving\b/i.test(portion.unit);

/** Round to `places` decimals: what a label shows, without float noise (0.1 + 0.2). */
const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;

/** The weight, and how the item's quantity and unit read, of `choice` among the food's `portions`. */
export const resolvePortion = (foodId: string, portions: readonly PortionRow[], choice: FoodPortionChoice) => {
  if (choice.grams !== undefined) return { grams: choice.grams, quantity: choice.grams, unit: "g" };
  const count = choice.servings ?? choice.count ?? 1;
  const portion = choice.measure !== undefined ? portions.find((p) => p.id === choice.measure) : portions.find(isServing);
  if (!portion) {
    throw new AppError(
      "validation",
      choice.measure !== undefined
        ? `portion.measure ${choice.measure} is not one of ${foodId}'s portions (${portions.map((p) => p.id).join(", ") || "it has none"}; grams always work)`
        : `${foodId} has no serving portion; give portion.grams or portion.measure`,
    );
  }
  return { grams: round(portion.grams * count, 2), quantity: round(portion.amount * count, 3), unit: portion.unit };
};

/** A typed item's bounds (FoodItemCreate) hold for computed numbers too. */
const MAX_ITEM_KCAL = 10_000;
const MAX_ITEM_PROTEIN_G = 1000;

/** The item's numbers for `grams` of a food; 400 past an item's kcal bound, 422 when the source has no energy or protein value for it. */
export const nutrientsFor = (foodId: string, per100g: FoodPer100g, grams: number) => {
  if (per100g.kcal === null || per100g.proteinG === null) {
    throw new AppError("unprocessable", `${foodId} has no nutrient values in the source; log it with typed numbers`);
  }
  const scale = (value: number | null, places: number) => (value === null ? null : round((value * grams) / 100, places));
  const kcal = scale(per100g.kcal, 1)!;
  const proteinG = scale(per100g.proteinG, 2)!;
  if (kcal > MAX_ITEM_KCAL || proteinG > MAX_ITEM_PROTEIN_G) {
    throw new AppError("validation", `that portion is ${kcal} kcal and ${proteinG} g protein, more than one item may hold (${MAX_ITEM_KCAL} kcal, ${MAX_ITEM_PROTEIN_G} g)`);
  }
  return {
    kcal,
    proteinG,
    fatG: scale(per100g.fatG, 2),
    carbsG: scale(per100g.carbsG, 2),
    fiberG: scale(per100g.fiberG, 2),
  };
};
