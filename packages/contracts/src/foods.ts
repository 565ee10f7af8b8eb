import { z } from "zod";

const UUID = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";

/**
 * A food to log: `usda:<fdc_id>` (the database), `custom:<uuid>` (one of the caller's own foods) or
 * `recipe:<uuid>` (one of the caller's recipes).
 */
export const FoodId = z
  .string({ error: "foodId must be a string" })
  .regex(new RegExp(`^(usda:[1-9][0-9]{0,8}|(custom|recipe):${UUID})$`), { error: "foodId must be a food id like usda:173944, custom:<uuid> or recipe:<uuid>" })
  .meta({
    description: "A food: `usda:<fdc_id>` (USDA FoodData Central, SR Legacy), `custom:<uuid>` (one of your foods) or `recipe:<uuid>` (one of your recipes).",
    examples: ["usda:173944"],
  });

/** The id of one of the caller's own foods or recipes, `<prefix>:<uuid>`. */
export const ownFoodId = (prefix: "custom" | "recipe") =>
  z
    .string({ error: "id must be a string" })
    .regex(new RegExp(`^${prefix}:${UUID}$`), { error: `id must be a ${prefix} id like ${prefix}:<uuid>` })
    .meta({ description: `\`${prefix}:<uuid>\`, as created.` });

const per100g = (what: string) => z.number().nullable().meta({ description: `${what} per 100 g; null when the source has no value (unknown, not 0).` });

export const FoodNutrients = z
  .object({
    kcal: per100g("Energy, kcal,"),
    proteinG: per100g("Protein, g,"),
    fatG: per100g("Total fat, g,"),
    carbsG: per100g("Carbohydrate by difference, g,"),
    fiberG: per100g("Dietary fibre, g,"),
    sugarsG: per100g("Total sugars, g,"),
    sodiumMg: per100g("Sodium, mg,"),
  })
  .meta({ id: "FoodNutrients", description: "Per 100 g of the edible portion." });

export const FoodPortion = z
  .object({
    id: z.number().int().meta({ description: "The portion's number within its food: pass it as `portion.measure` when logging." }),
    amount: z.number().meta({ description: "How many of `unit` the portion is." }),
    unit: z.string().meta({ description: "The household measure, e.g. `cup, chopped` or `medium (7\" to 7-7/8\" long)`." }),
    grams: z.number().meta({ description: "The portion's weight in grams." }),
  })
  .meta({ id: "FoodPortion", description: "A household measure of the food with its weight: `1 cup, chopped` = 160 g." });

const FoodFields = {
  id: FoodId,
  name: z.string().meta({ description: "The source's description, e.g. `Bananas, raw`; your own food's name (with its brand) or recipe's name." }),
  category: z.string().meta({ description: "The source's food group, e.g. `Fruits and Fruit Juices`; `My foods` or `My recipes` for your own." }),
  per100g: FoodNutrients,
};

export const FoodMatch = z.object(FoodFields).meta({ id: "FoodMatch" });

export const Food = z
  .object({
    ...FoodFields,
    portions: z.array(FoodPortion).meta({ description: "Household measures in the source's order; grams can always be logged." }),
    caveat: z.string().nullable().meta({
      description: "Why a value may differ from the source's own (e.g. `kcal_may_differ:…`; see the README's food database section), or null.",
    }),
  })
  .meta({ id: "Food" });

export const FoodSearchQuery = z.object({
  q: z
    .string()
    .trim()
    .min(1, { error: "q must be 1 to 200 characters" })
    .max(200, { error: "q must be 1 to 200 characters" })
    .meta({ description: "What the food is called, as a person types it: `chicken breast`, `banan`, `greek yogurt`.", examples: ["banana"] }),
  limit: z.coerce
    .number({ error: "limit must be a number" })
    .int({ error: "limit must be an integer" })
    .min(1, { error: "limit must be between 1 and 50" })
    .max(50, { error: "limit must be between 1 and 50" })
    .default(20)
    .meta({ description: "At most this many foods, 1 to 50 (default 20)." }),
});

export const RecentFood = FoodMatch.extend({
  lastLoggedOn: z.string().meta({ description: "The latest day (YYYY-MM-DD) the caller logged this food on." }),
  timesLogged: z.number().int().meta({ description: "How many items the caller logged from this food in the last 90 days." }),
}).meta({ id: "RecentFood" });

export const RecentFoodList = z.array(RecentFood).meta({ id: "RecentFoodList" });

export const RecentFoodsQuery = FoodSearchQuery.pick({ limit: true });

export const FoodMatchList = z.array(FoodMatch).meta({ id: "FoodMatchList" });

export const FoodIdParams = z.object({ id: FoodId });
