import { randomUUID } from "node:crypto";
import { ack, AppError, CustomFoodInput, operations, type RecipeInput } from "@fit/contracts";
import { serveOperation, type ServiceContext } from "@fit/service-kit";
import { resolvePortion } from "../domain/food-portion.ts";
import { checkServingWeight, ingredientNutrients } from "../domain/own-foods.ts";
import type { FoodFinder } from "../lookup/food-finder.ts";
import type { ResolvedIngredient } from "../store/own-foods.ts";
import type { Store } from "../store/store.ts";

const noCustomFood = (id: string) => new AppError("not_found", `no food ${id}`);
const noRecipe = (id: string) => new AppError("not_found", `no recipe ${id}`);

/**
 * Each ingredient's food, weight and figures; a refusal names the ingredient it is about (`ingredients.2`). 422 when
 * a serving of the whole would weigh under 1 g.
 */
const resolveIngredients = async (foods: FoodFinder, accountId: string, recipe: RecipeInput) => {
  const resolved = await Promise.all(
    recipe.ingredients.map(async ({ foodId, portion }, index): Promise<ResolvedIngredient> => {
      try {
        const food = await foods.byId(accountId, foodId);
        if (!food) throw new AppError("not_found", `no food ${foodId}`);
        const { grams } = resolvePortion(foodId, food.portions, portion);
        return { foodId, portion, name: food.name, grams, ...ingredientNutrients(foodId, food.per100g, grams) };
      } catch (error) {
        if (error instanceof AppError) throw new AppError(error.code, `ingredients.${index}: ${error.message}`);
        throw error;
      }
    }),
  );
  checkServingWeight({ ...recipe, ingredientGrams: resolved.map((ingredient) => ingredient.grams) });
  return resolved;
};

export const ownFoodRoutes = ({ app, store }: ServiceContext<Store>, foods: FoodFinder) => {
  const { ownFoods } = store;

  serveOperation(app, operations.listCustomFoods, ({ caller }) => ownFoods.listCustomFoods(caller.accountId));

  serveOperation(app, operations.createCustomFood, ({ body, caller, record }) =>
    ownFoods.createCustomFood(caller.accountId, randomUUID(), body, (view) => record(view)));

  serveOperation(app, operations.getCustomFood, async ({ params, caller }) => {
    const food = await ownFoods.getCustomFood(caller.accountId, params.id);
    if (!food) throw noCustomFood(params.id);
    return food;
  });

  serveOperation(app, operations.editCustomFood, async ({ params, body, caller }) => {
    // The food after the patch must be a valid food as a whole (servingG with per: serving, no part over its weight).
    const food = await ownFoods.editCustomFood(caller.accountId, params.id, (current) => {
      const merged = CustomFoodInput.safeParse({ ...current, ...body });
      if (!merged.success) throw new AppError("validation", merged.error.issues.map((issue) => issue.message).join("; "));
      return merged.data;
    });
    if (!food) throw noCustomFood(params.id);
    return food;
  });

  serveOperation(app, operations.deleteCustomFood, async ({ params, caller }) => {
    const outcome = await ownFoods.deleteCustomFood(caller.accountId, params.id);
    if (!outcome) throw noCustomFood(params.id);
    if (outcome.heldBy.length > 0) {
      throw new AppError("conflict", `${params.id} is an ingredient of ${outcome.heldBy.map((name) => `"${name}"`).join(", ")}; take it out of those recipes first`);
    }
    return ack;
  });

  serveOperation(app, operations.listRecipes, ({ caller }) => ownFoods.listRecipes(caller.accountId));

  serveOperation(app, operations.createRecipe, async ({ body, caller, record }) => {
    const ingredients = await resolveIngredients(foods, caller.accountId, body);
    return ownFoods.createRecipe(caller.accountId, randomUUID(), body, ingredients, (view) => record(view));
  });

  serveOperation(app, operations.getRecipe, async ({ params, caller }) => {
    const recipe = await ownFoods.getRecipe(caller.accountId, params.id);
    if (!recipe) throw noRecipe(params.id);
    return recipe;
  });

  serveOperation(app, operations.replaceRecipe, async ({ params, body, caller }) => {
    const recipe = await ownFoods.replaceRecipe(caller.accountId, params.id, body, await resolveIngredients(foods, caller.accountId, body));
    if (!recipe) throw noRecipe(params.id);
    return recipe;
  });

  serveOperation(app, operations.deleteRecipe, async ({ params, caller }) => {
    if (!(await ownFoods.deleteRecipe(caller.accountId, params.id))) throw noRecipe(params.id);
    return ack;
  });
};
