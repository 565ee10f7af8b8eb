// The person's own foods and recipes (docs/decisions/0065-own-foods-and-recipes.md): searched, read and logged
// like the database's foods, under ids `custom:<uuid>` and `recipe:<uuid>`.
import { z } from "zod";
import { TimestampMs } from "./common.ts";
import { FoodId, FoodNutrients, ownFoodId } from "./foods.ts";
import { FoodPortionChoice } from "./nutrition.ts";

export const CustomFoodId = ownFoodId("custom");
export const RecipeId = ownFoodId("recipe");

const amount = (field: string, max: number, unit: string) =>
  z
    .number({ error: `${field} must be a number` })
    .min(0, { error: `${field} must be between 0 and ${max} ${unit}` })
    .max(max, { error: `${field} must be between 0 and ${max} ${unit}` });

const text = (field: string, max: number) =>
  z
    .string({ error: `${field} must be a string` })
    .trim()
    .min(1, { error: `${field} must be 1 to ${max} characters` })
    .max(max, { error: `${field} must be 1 to ${max} characters` });

/** A weight from a tenth of a gram (a mint) up: below it, figures per 100 g computed from it grow without bound. */
const grams = (field: string, max: number) =>
  z
    .number({ error: `${field} must be a number` })
    .min(0.1, { error: `${field} must be between 0.1 and ${max} g` })
    .max(max, { error: `${field} must be between 0.1 and ${max} g` });

export const FoodBasis = z.enum(["100g", "serving"], { error: "per must be 100g or serving" });

/** The weighed parts of a food: none can weigh more than what it is given for. */
const WEIGHED = ["proteinG", "fatG", "carbsG", "fiberG", "sugarsG"] as const;

const CustomFoodFields = {
  name: text("name", 200),
  brand: text("brand", 100).nullable().optional(),
  per: FoodBasis.meta({ description: "Whether the figures are per 100 g or per serving (`servingG` grams)." }),
  servingG: grams("servingG", 5000).nullable().optional().meta({ description: "A serving's weight; required with `per: serving`." }),
  kcal: amount("kcal", 10_000, "kcal"),
  proteinG: amount("proteinG", 1000, "g"),
  fatG: amount("fatG", 1000, "g").nullable().optional(),
  carbsG: amount("carbsG", 1000, "g").nullable().optional(),
  fiberG: amount("fiberG", 1000, "g").nullable().optional(),
  sugarsG: amount("sugarsG", 1000, "g").nullable().optional(),
  sodiumMg: amount("sodiumMg", 100_000, "mg").nullable().optional(),
  measures: z
    .array(
      z.object({ name: text("measures.name", 60).meta({ description: "e.g. `slice`, `cup`." }), grams: grams("measures.grams", 5000) }).strict(),
      { error: "measures must be a list" },
    )
    .max(10, { error: "measures must hold at most 10 measures" })
    .optional()
    .meta({ description: "Household measures with their weight (`slice` = 30 g), logged as `portion.measure` 2, 3… after the serving." }),
};

export const CustomFoodInput = z
  .object(CustomFoodFields)
  .strict()
  .superRefine((food, context) => {
    if (food.per === "serving" && (food.servingG === undefined || food.servingG === null)) {
      context.addIssue({ code: "custom", path: ["servingG"], message: "servingG is required when the figures are per serving" });
    }
    const basisG = food.per === "100g" ? 100 : food.servingG;
    if (basisG === undefined || basisG === null) return;
    for (const field of WEIGHED) {
      const value = food[field];
      if (value !== undefined && value !== null && value > basisG) {
        context.addIssue({ code: "custom", path: [field], message: `${field} (${value} g) cannot be more than the ${basisG} g the figures are for` });
      }
    }
  })
  .meta({
    id: "CustomFoodInput",
    description: "A food of your own: figures per 100 g or per serving of `servingG` grams; a null figure is unknown (not 0).",
  });
export type CustomFoodInput = z.infer<typeof CustomFoodInput>;

export const CustomFoodPatch = z
  .object(CustomFoodFields)
  .partial()
  .strict()
  .refine((patch) => Object.keys(patch).length > 0, { error: "at least one field must be given" })
  .meta({
    id: "CustomFoodPatch",
    description: "Only the fields sent change (null clears one); the result must still be a valid food.",
    examples: [{ kcal: 250, proteinG: 10 }],
  });

export const CustomFood = z
  .object({
    id: CustomFoodId,
    name: z.string(),
    brand: z.string().nullable(),
    per: FoodBasis,
    servingG: z.number().nullable(),
    kcal: z.number(),
    proteinG: z.number(),
    fatG: z.number().nullable(),
    carbsG: z.number().nullable(),
    fiberG: z.number().nullable(),
    sugarsG: z.number().nullable(),
    sodiumMg: z.number().nullable(),
    measures: z.array(z.object({ name: z.string(), grams: z.number() })),
    per100g: FoodNutrients,
    createdAt: TimestampMs,
    updatedAt: TimestampMs,
  })
  .meta({ id: "CustomFood", description: "A food of your own as you entered it, with its figures per 100 g." });

export const CustomFoodList = z.array(CustomFood).meta({ id: "CustomFoodList", description: "Your foods by name." });
export const CustomFoodParams = z.object({ id: CustomFoodId });

export const RecipeIngredientInput = z
  .object({
    foodId: FoodId.refine((id) => !id.startsWith("recipe:"), { error: "foodId of an ingredient must be a food (usda:, off: or custom:), not a recipe" }),
    portion: FoodPortionChoice,
  })
  .strict()
  .meta({ id: "RecipeIngredientInput", description: "A food and how much of it goes in.", examples: [{ foodId: "usda:173944", portion: { grams: 120 } }] });

export const RecipeInput = z
  .object({
    name: text("name", 200),
    servings: z
      .number({ error: "servings must be a number" })
      .min(0.1, { error: "servings must be between 0.1 and 100" })
      .max(100, { error: "servings must be between 0.1 and 100" })
      .meta({ description: "How many servings the recipe makes." }),
    cookedWeightG: grams("cookedWeightG", 50_000)
      .nullable()
      .optional()
      .meta({ description: "What the dish weighs cooked; without it, the sum of its ingredients' weights." }),
    ingredients: z
      .array(RecipeIngredientInput, { error: "ingredients must be a list" })
      .min(1, { error: "ingredients must hold 1 to 50 foods" })
      .max(50, { error: "ingredients must hold 1 to 50 foods" }),
  })
  .strict()
  .meta({ id: "RecipeInput", description: "A dish made of foods with amounts; its figures are computed from them." });
export type RecipeInput = z.infer<typeof RecipeInput>;

const figure = (what: string) => z.number().nullable().meta({ description: `${what}; null when an ingredient's value is unknown.` });

export const RecipeFigures = z
  .object({
    kcal: z.number(),
    proteinG: z.number(),
    fatG: figure("Fat, g"),
    carbsG: figure("Carbohydrate, g"),
    fiberG: figure("Fibre, g"),
    sugarsG: figure("Sugars, g"),
    sodiumMg: figure("Sodium, mg"),
  })
  .meta({ id: "RecipeFigures" });

export const Recipe = z
  .object({
    id: RecipeId,
    name: z.string(),
    servings: z.number(),
    cookedWeightG: z.number().nullable(),
    weightG: z.number().meta({ description: "What the dish weighs: `cookedWeightG`, else the sum of its ingredients." }),
    servingG: z.number().meta({ description: "One serving's weight: `weightG / servings`." }),
    ingredients: z.array(
      z.object({ foodId: FoodId, portion: FoodPortionChoice, name: z.string(), grams: z.number(), kcal: z.number(), proteinG: z.number() }),
    ),
    perServing: RecipeFigures,
    per100g: FoodNutrients,
    createdAt: TimestampMs,
    updatedAt: TimestampMs,
  })
  .meta({ id: "Recipe", description: "A recipe with each ingredient's weight and figures, and the dish's per serving and per 100 g." });

export const RecipeList = z.array(Recipe).meta({ id: "RecipeList", description: "Your recipes by name." });
export const RecipeParams = z.object({ id: RecipeId });
