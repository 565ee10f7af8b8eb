import { z } from "zod";

const UUID = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";

/**
 * Whether `digits` (8, 12, 13 or 14 of them) end in their GS1 check digit: from the right, the digits before it
 * weigh 3, 1, 3, 1…, and the check digit brings their sum to a multiple of 10.
 */
export const hasGtinCheckDigit = (digits: string): boolean => {
  const body = [...digits.slice(0, -1)].reverse();
  const sum = body.reduce((total, digit, i) => total + Number(digit) * (i % 2 === 0 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10 === Number(digits.at(-1));
};

/**
 * A product's one spelling: a 12-digit UPC-A and a 14-digit GTIN starting with 0 are the same product as the
 * 13 digits they pad or are padded to, as Open Food Facts files them.
 */
export const canonicalGtin = (digits: string): string =>
  digits.length === 12 ? `0${digits}` : digits.length === 14 && digits.startsWith("0") ? digits.slice(1) : digits;

/** A barcode as printed under its bars: GTIN-8, UPC-A (12), EAN-13 or GTIN-14, with a valid check digit. */
export const Gtin = z
  .string({ error: "code must be a barcode of 8, 12, 13 or 14 digits" })
  .regex(/^(?:\d{8}|\d{12,14})$/, { error: "code must be a barcode of 8, 12, 13 or 14 digits" })
  .refine(hasGtinCheckDigit, { error: "code's last digit is not its check digit: a digit was mistyped" })
  .meta({ description: "A barcode: GTIN-8, UPC-A (12 digits), EAN-13 or GTIN-14, check digit included.", examples: ["3017620422003"] });

/**
 * A food to log: `usda:<fdc_id>` (the database), `off:<gtin>` (a packaged product looked up by its barcode in Open
 * Food Facts, GET /api/foods/barcode/{code}), `custom:<uuid>` (one of the caller's own foods) or `recipe:<uuid>` (one
 * of the caller's recipes).
 */
export const FoodId = z
  .string({ error: "foodId must be a string" })
  .regex(new RegExp(`^(usda:[1-9][0-9]{0,8}|off:([0-9]{8}|[0-9]{13,14})|(custom|recipe):${UUID})$`), {
    error: "foodId must be a food id like usda:173944, off:3017620422003, custom:<uuid> or recipe:<uuid>",
  })
  .meta({
    description:
      "A food: `usda:<fdc_id>` (USDA FoodData Central, SR Legacy), `off:<gtin>` (a product by its barcode, from Open Food Facts), `custom:<uuid>` (one of your foods) or `recipe:<uuid>` (one of your recipes).",
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
  name: z.string().meta({ description: "The source's description, e.g. `Bananas, raw`; a product's name and brand; your own food's name (with its brand) or recipe's name." }),
  category: z.string().meta({ description: "The source's food group, e.g. `Fruits and Fruit Juices`; `Packaged foods (Open Food Facts)` for a product; `My foods` or `My recipes` for your own." }),
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

export const BarcodeParams = z.object({ code: Gtin });
