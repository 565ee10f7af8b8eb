// The arithmetic of the person's own foods and recipes (docs/decisions/0065-own-foods-and-recipes.md): a food
// entered per serving becomes figures per 100 g; a recipe's figures are its ingredients' sums, per serving and
// per 100 g of the dish. An unknown value stays unknown (null), and makes any sum it is part of unknown.
import { AppError } from "@fit/contracts";
import type { FoodPer100g, PortionRow } from "./food-portion.ts";

export interface Nutrients extends FoodPer100g {
  sugarsG: number | null;
  sodiumMg: number | null;
}

/** Nutrients whose kcal and protein are known: what an ingredient, and so a recipe, always has. */
export interface KnownNutrients extends Nutrients {
  kcal: number;
  proteinG: number;
}

const FIELDS = ["kcal", "proteinG", "fatG", "carbsG", "fiberG", "sugarsG", "sodiumMg"] as const;

const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;

/** Every value × `factor`, rounded to `places`; null stays null. */
const scaled = <N extends Nutrients>(nutrients: N, factor: number, places: number): N => {
  const result = { ...nutrients };
  for (const field of FIELDS) {
    const value = nutrients[field];
    (result as Nutrients)[field] = value === null ? null : round(value * factor, places);
  }
  return result;
};

/** Figures per 100 g kept to 3 decimals, so a serving logged back from them comes out as entered (250 kcal per 30 g). */
const PER_100G_PLACES = 3;

export interface CustomFoodFigures extends KnownNutrients {
  per: string;
  servingG: number | null;
}

/** A food of one's own per 100 g, whichever way its figures were entered. */
export const customFoodPer100g = (food: CustomFoodFigures): KnownNutrients => {
  const { kcal, proteinG, fatG, carbsG, fiberG, sugarsG, sodiumMg } = food;
  const factor = food.per === "serving" ? 100 / food.servingG! : 1;
  return scaled({ kcal, proteinG, fatG, carbsG, fiberG, sugarsG, sodiumMg }, factor, PER_100G_PLACES);
};

/** Its portions as a logged food offers them: 1 its serving (when it has one), then its measures from 2. */
export const customFoodPortions = (servingG: number | null, measures: readonly { name: string; grams: number }[]): PortionRow[] => [
  ...(servingG === null ? [] : [{ id: 1, amount: 1, unit: "serving", grams: servingG }]),
  ...measures.map((measure, index) => ({ id: index + 2, amount: 1, unit: measure.name, grams: measure.grams })),
];

/** What `grams` of an ingredient brings to a recipe; 422 when its source knows no energy or protein for it. */
export const ingredientNutrients = (foodId: string, per100g: Nutrients, grams: number): KnownNutrients => {
  if (per100g.kcal === null || per100g.proteinG === null) {
    throw new AppError("unprocessable", `${foodId} has no nutrient values in the source; it cannot be an ingredient`);
  }
  return scaled({ ...per100g, kcal: per100g.kcal, proteinG: per100g.proteinG }, grams / 100, 2);
};

/** The sums of the ingredients' figures; one unknown makes that sum unknown. */
export const recipeTotals = (ingredients: readonly KnownNutrients[]): KnownNutrients => {
  const sum = (field: (typeof FIELDS)[number]) =>
    ingredients.reduce<number | null>((total, ingredient) => (total === null || ingredient[field] === null ? null : total + ingredient[field]), 0);
  return {
    kcal: ingredients.reduce((total, ingredient) => total + ingredient.kcal, 0),
    proteinG: ingredients.reduce((total, ingredient) => total + ingredient.proteinG, 0),
    fatG: sum("fatG"),
    carbsG: sum("carbsG"),
    fiberG: sum("fiberG"),
    sugarsG: sum("sugarsG"),
    sodiumMg: sum("sodiumMg"),
  };
};

/**
 * A recipe's figures: per serving, its totals ÷ servings; per 100 g, its totals over what the dish weighs (cooked,
 * when weighed, else its ingredients' grams); a serving weighs the dish ÷ servings.
 */
export const recipeFigures = (recipe: { totals: KnownNutrients; servings: number; cookedWeightG: number | null; ingredientGrams: readonly number[] }) => {
  const weightG = recipe.cookedWeightG ?? recipe.ingredientGrams.reduce((total, grams) => total + grams, 0);
  return {
    weightG: round(weightG, 2),
    servingG: round(weightG / recipe.servings, 2),
    perServing: scaled(recipe.totals, 1 / recipe.servings, 2),
    per100g: scaled(recipe.totals, 100 / weightG, PER_100G_PLACES),
  };
};

/** The least a serving may weigh: below it the figures per 100 g of the dish stop meaning anything. */
const MIN_SERVING_G = 1;

/** 422 unless a serving of the recipe weighs at least 1 g (the dish weighed, or its ingredients' grams, ÷ servings). */
export const checkServingWeight = (recipe: { servings: number; cookedWeightG?: number | null; ingredientGrams: readonly number[] }) => {
  const weightG = recipe.cookedWeightG ?? recipe.ingredientGrams.reduce((total, grams) => total + grams, 0);
  const servingG = weightG / recipe.servings;
  if (!(servingG >= MIN_SERVING_G)) {
    throw new AppError(
      "unprocessable",
      `a serving would weigh ${round(servingG, 4)} g (${round(weightG, 4)} g in ${recipe.servings} servings); it must weigh at least ${MIN_SERVING_G} g`,
    );
  }
};

/** A recipe is logged by servings (portion 1) or grams. */
export const recipePortions = (servingG: number): PortionRow[] => [{ id: 1, amount: 1, unit: "serving", grams: servingG }];
