// The person's own foods and recipes (docs/decisions/0065-own-foods-and-recipes.md). Every read and write is
// scoped by account: another account's id is not found.
import type { CustomFoodInput, FoodPortionChoice } from "@fit/contracts";
import type { Database } from "@fit/db";
import {
  customFoodPer100g, customFoodPortions, ingredientNutrients, recipeFigures, recipePortions, recipeTotals, type KnownNutrients,
} from "../domain/own-foods.ts";
import { Prisma, type CustomFood, type PrismaClient, type Recipe, type RecipeIngredient } from "./generated/client.ts";

const CUSTOM = "custom:";
const RECIPE = "recipe:";
/** What search and a read of the food call the person's own, in place of the database's food group. */
const MY_FOODS = "My foods";
const MY_RECIPES = "My recipes";

type Measures = { name: string; grams: number }[];
type RecipeRow = Recipe & { ingredients: RecipeIngredient[] };

/** An ingredient as resolved from its food and portion, ready to store. */
export interface ResolvedIngredient extends KnownNutrients {
  foodId: string;
  portion: FoodPortionChoice;
  name: string;
  grams: number;
}

const nutrientsOf = ({ kcal, proteinG, fatG, carbsG, fiberG, sugarsG, sodiumMg }: KnownNutrients): KnownNutrients =>
  ({ kcal, proteinG, fatG, carbsG, fiberG, sugarsG, sodiumMg });

const displayName = (food: Pick<CustomFood, "name" | "brand">) => (food.brand ? `${food.name} (${food.brand})` : food.name);

export const customFoodView = (row: CustomFood) => ({
  id: `${CUSTOM}${row.id}`,
  name: row.name,
  brand: row.brand,
  per: row.per as "100g" | "serving",
  servingG: row.servingG,
  ...nutrientsOf(row),
  measures: row.measures as Measures,
  per100g: customFoodPer100g(row),
  createdAt: row.createdAt.getTime(),
  updatedAt: row.updatedAt.getTime(),
});

const figuresOf = (row: RecipeRow) =>
  recipeFigures({ totals: nutrientsOf(row), servings: row.servings, cookedWeightG: row.cookedWeightG, ingredientGrams: row.ingredients.map((i) => i.grams) });

export const recipeView = (row: RecipeRow) => ({
  id: `${RECIPE}${row.id}`,
  name: row.name,
  servings: row.servings,
  cookedWeightG: row.cookedWeightG,
  ...figuresOf(row),
  ingredients: row.ingredients.map((i) => ({
    foodId: i.foodId, portion: i.portion as FoodPortionChoice, name: i.name, grams: i.grams, kcal: i.kcal, proteinG: i.proteinG,
  })),
  createdAt: row.createdAt.getTime(),
  updatedAt: row.updatedAt.getTime(),
});

const withIngredients = { ingredients: { orderBy: { position: "asc" } } } as const;

/**
 * Recipes with their ingredients, read in one snapshot: Prisma reads them in two queries, and a recipe replaced
 * between the two would come back without ingredients, weighing nothing (hostile input met it as a 500).
 */
export const readRecipes = (prisma: PrismaClient, args: Omit<Prisma.RecipeFindManyArgs, "include">) =>
  prisma.$transaction((tx) => tx.recipe.findMany({ ...args, include: withIngredients }), {
    isolationLevel: Prisma.TransactionIsolationLevel.RepeatableRead,
  });

const customFoodData = (input: CustomFoodInput) => ({
  name: input.name,
  brand: input.brand ?? null,
  per: input.per,
  servingG: input.servingG ?? null,
  kcal: input.kcal,
  proteinG: input.proteinG,
  fatG: input.fatG ?? null,
  carbsG: input.carbsG ?? null,
  fiberG: input.fiberG ?? null,
  sugarsG: input.sugarsG ?? null,
  sodiumMg: input.sodiumMg ?? null,
  measures: input.measures ?? [],
});

const recipeData = (recipe: { name: string; servings: number; cookedWeightG?: number | null | undefined }, ingredients: readonly ResolvedIngredient[]) => ({
  name: recipe.name,
  servings: recipe.servings,
  cookedWeightG: recipe.cookedWeightG ?? null,
  ...recipeTotals(ingredients),
  ingredients: {
    create: ingredients.map((ingredient, position) => ({
      position, foodId: ingredient.foodId, portion: ingredient.portion, name: ingredient.name, grams: ingredient.grams, ...nutrientsOf(ingredient),
    })),
  },
});

/** The food as it was entered, for an edit to change. */
const inputOf = (row: CustomFood): CustomFoodInput => ({
  name: row.name, brand: row.brand, per: row.per as CustomFoodInput["per"], servingG: row.servingG, ...nutrientsOf(row), measures: row.measures as Measures,
});

/** The uuid of a `custom:`/`recipe:` id; ids arrive validated by the contract. */
export const uuidOf = (id: string) => id.slice(id.indexOf(":") + 1).toLowerCase();

interface OwnMatch {
  kind: "custom" | "recipe";
  id: string;
}

export const ownFoodStore = (db: Database, prisma: PrismaClient) => {
  /** One of the account's foods or recipes as a food to log or to put in a recipe; null when it has none such. */
  const asFood = async (accountId: string, id: string) => {
    if (id.startsWith(CUSTOM)) {
      const row = await prisma.customFood.findFirst({ where: { id: uuidOf(id), accountId } });
      if (!row) return null;
      return {
        id, name: displayName(row), category: MY_FOODS, per100g: customFoodPer100g(row),
        portions: customFoodPortions(row.servingG, row.measures as Measures), caveat: null,
      };
    }
    const [row] = await readRecipes(prisma, { where: { id: uuidOf(id), accountId } });
    if (!row) return null;
    const { per100g, servingG } = figuresOf(row);
    return { id, name: row.name, category: MY_RECIPES, per100g, portions: recipePortions(servingG), caveat: null };
  };

  return {
    listCustomFoods: async (accountId: string) =>
      (await prisma.customFood.findMany({ where: { accountId }, orderBy: [{ name: "asc" }, { id: "asc" }] })).map(customFoodView),

    async getCustomFood(accountId: string, id: string) {
      const row = await prisma.customFood.findFirst({ where: { id: uuidOf(id), accountId } });
      return row ? customFoodView(row) : null;
    },

    /** Creates it, with `alongside` (an Idempotency-Key's record) in the same transaction. */
    async createCustomFood(accountId: string, id: string, input: CustomFoodInput, alongside: (view: ReturnType<typeof customFoodView>) => Prisma.Sql[]) {
      const now = new Date();
      const data = { id, accountId, ...customFoodData(input), createdAt: now, updatedAt: now };
      const view = customFoodView(data);
      await prisma.$transaction([prisma.customFood.create({ data }), ...alongside(view).map((statement) => prisma.$executeRaw(statement))]);
      return view;
    },

    /**
     * Replaces its fields with `next(current)` (null: it does not exist) and recomputes, in the same transaction,
     * every recipe holding it at the grams each holds.
     */
    editCustomFood: (accountId: string, id: string, next: (current: CustomFoodInput) => CustomFoodInput) =>
      prisma.$transaction(async (tx) => {
        const current = await tx.customFood.findFirst({ where: { id: uuidOf(id), accountId } });
        if (!current) return null;
        const row = await tx.customFood.update({ where: { id: current.id }, data: customFoodData(next(inputOf(current))) });
        const foodId = `${CUSTOM}${row.id}`;
        const per100g = customFoodPer100g(row);
        const held = await tx.recipeIngredient.findMany({ where: { foodId, recipe: { accountId } }, select: { recipeId: true }, distinct: ["recipeId"] });
        for (const { recipeId } of held) {
          const ingredients = await tx.recipeIngredient.findMany({ where: { recipeId }, orderBy: { position: "asc" } });
          const refreshed = ingredients.map((i) => (i.foodId === foodId ? { ...i, name: displayName(row), ...ingredientNutrients(foodId, per100g, i.grams) } : i));
          for (const i of refreshed.filter((i) => i.foodId === foodId)) {
            await tx.recipeIngredient.update({ where: { recipeId_position: { recipeId, position: i.position } }, data: { name: i.name, ...nutrientsOf(i) } });
          }
          await tx.recipe.update({ where: { id: recipeId }, data: recipeTotals(refreshed) });
        }
        return customFoodView(row);
      }),

    /** Deleted; or the names of the recipes holding it (nothing deleted); null when it does not exist. */
    deleteCustomFood: (accountId: string, id: string) =>
      prisma.$transaction(async (tx) => {
        const food = await tx.customFood.findFirst({ where: { id: uuidOf(id), accountId } });
        if (!food) return null;
        const holders = await tx.recipe.findMany({
          where: { accountId, ingredients: { some: { foodId: `${CUSTOM}${food.id}` } } },
          select: { name: true },
          orderBy: { name: "asc" },
        });
        if (holders.length === 0) await tx.customFood.delete({ where: { id: food.id } });
        return { heldBy: holders.map((recipe) => recipe.name) };
      }),

    listRecipes: async (accountId: string) =>
      (await readRecipes(prisma, { where: { accountId }, orderBy: [{ name: "asc" }, { id: "asc" }] })).map(recipeView),

    async getRecipe(accountId: string, id: string) {
      const [row] = await readRecipes(prisma, { where: { id: uuidOf(id), accountId } });
      return row ? recipeView(row) : null;
    },

    async createRecipe(
      accountId: string,
      id: string,
      recipe: { name: string; servings: number; cookedWeightG?: number | null | undefined },
      ingredients: readonly ResolvedIngredient[],
      alongside: (view: ReturnType<typeof recipeView>) => Prisma.Sql[],
    ) {
      return prisma.$transaction(async (tx) => {
        const view = recipeView(await tx.recipe.create({ data: { id, accountId, ...recipeData(recipe, ingredients) }, include: withIngredients }));
        for (const statement of alongside(view)) await tx.$executeRaw(statement);
        return view;
      });
    },

    /** Replaces it whole; null when it does not exist. */
    replaceRecipe: (
      accountId: string,
      id: string,
      recipe: { name: string; servings: number; cookedWeightG?: number | null | undefined },
      ingredients: readonly ResolvedIngredient[],
    ) =>
      prisma.$transaction(async (tx) => {
        const found = await tx.recipe.findFirst({ where: { id: uuidOf(id), accountId }, select: { id: true } });
        if (!found) return null;
        await tx.recipeIngredient.deleteMany({ where: { recipeId: found.id } });
        return recipeView(await tx.recipe.update({ where: { id: found.id }, data: recipeData(recipe, ingredients), include: withIngredients }));
      }),

    deleteRecipe: async (accountId: string, id: string) => (await prisma.recipe.deleteMany({ where: { id: uuidOf(id), accountId } })).count > 0,

    asFood: (accountId: string, id: string) => asFood(accountId, id),

    /**
     * The account's foods and recipes whose name (and brand) holds every typed word, as it is or a typo away
     * (trigram word similarity), best first: a person has tens of them, not thousands, so a scan of the account's
     * rows answers as fast as the index search of the database.
     */
    async search(accountId: string, words: readonly string[], limit: number) {
      const matches = await db.query<OwnMatch>(Prisma.sql`
        WITH own AS (
          SELECT 'custom' AS kind, id, lower(name || ' ' || coalesce(brand, '')) AS text FROM custom_food WHERE account_id = ${accountId}::uuid
          UNION ALL
          SELECT 'recipe', id, lower(name) FROM recipe WHERE account_id = ${accountId}::uuid
        ), scored AS (
          SELECT kind, id, (SELECT sum(CASE WHEN strpos(text, w) > 0 THEN 1 ELSE word_similarity(w, text) END)
                            FROM unnest(${words}::text[]) w) AS score,
                 NOT EXISTS (SELECT 1 FROM unnest(${words}::text[]) w WHERE strpos(text, w) = 0 AND word_similarity(w, text) < 0.5) AS every_word
          FROM own
        )
        SELECT kind, id::text AS id FROM scored WHERE every_word ORDER BY score DESC, kind, id LIMIT ${limit}`);
      const found = await Promise.all(matches.map((match) => asFood(accountId, `${match.kind}:${match.id}`)));
      return found.filter((food) => food !== null).map(({ id, name, category, per100g }) => ({ id, name, category, per100g }));
    },
  };
};
