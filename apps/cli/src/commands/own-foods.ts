import { operations, type CustomFood, type FoodPortionChoice, type Recipe } from "@fit/contracts";
import { InvalidArgumentError, type Command } from "commander";
import type { z } from "zod";
import { number, onlyGiven } from "../args.ts";
import { call } from "../client.ts";
import type { Connection } from "../config.ts";
import { contextOf } from "../context.ts";
import { CliError, exitCodes } from "../exit.ts";
import { portion, PORTION_HELP } from "../food-portion.ts";
import { orDash, printJson, printLine, printRecord, printTable } from "../output.ts";
import { addDeleteCommand } from "./delete-by-id.ts";
import { pickFood } from "./foods.ts";

type Food = z.output<typeof CustomFood>;
type Dish = z.output<typeof Recipe>;

interface FoodOptions {
  brand?: string;
  per?: "100g" | "serving";
  serving?: number;
  kcal?: number;
  protein?: number;
  fat?: number;
  carbs?: number;
  fiber?: number;
  sugars?: number;
  sodium?: number;
  measure?: { name: string; grams: number }[];
}

/** `100g` or `serving` (`100 g`, `servings` too). */
const basis = (value: string): "100g" | "serving" => {
  const text = value.trim().toLowerCase().replace(/\s+/g, "");
  if (text === "100g") return "100g";
  if (/^servings?$/.test(text)) return "serving";
  throw new InvalidArgumentError("not 100g or serving");
};

/** Grams as typed: `40`, `40g`, `32,5 g`. */
const grams = (value: string): number => number(value.trim().replace(/\s*(g|grams?)$/i, ""));

/** `--measure "slice=30g"`, given once per measure. */
const measure = (value: string, previous: FoodOptions["measure"] = []) => {
  const match = /^(.+?)\s*=\s*(.+)$/.exec(value.trim());
  if (!match) throw new InvalidArgumentError('not a measure: its name and weight, "slice=30g"');
  return [...previous, { name: match[1]!, grams: grams(match[2]!) }];
};

/** The options as the fields of a food (only those given, for an edit). */
const foodFields = (name: string | undefined, options: FoodOptions) =>
  onlyGiven({
    name, brand: options.brand, per: options.per, servingG: options.serving, kcal: options.kcal, proteinG: options.protein, fatG: options.fat,
    carbsG: options.carbs, fiberG: options.fiber, sugarsG: options.sugars, sodiumMg: options.sodium, measures: options.measure,
  });

const withFoodOptions = (command: Command) =>
  command
    .option("--brand <brand>", "who makes it")
    .option("--per <basis>", "the figures are per 100g or per serving", basis)
    .option("--serving <grams>", "a serving's weight in grams (required with --per serving)", grams)
    .option("--kcal <kcal>", "energy, kcal", number)
    .option("--protein <g>", "protein, grams", number)
    .option("--fat <g>", "fat, grams", number)
    .option("--carbs <g>", "carbohydrates, grams", number)
    .option("--fiber <g>", "fiber, grams", number)
    .option("--sugars <g>", "sugars, grams", number)
    .option("--sodium <mg>", "sodium, milligrams", number)
    .option("--measure <name=grams>", 'a household measure with its weight, "slice=30g"; repeat for more', measure);

const figures = (food: { kcal: number | null; proteinG: number | null; fatG: number | null; carbsG: number | null; fiberG: number | null }) =>
  `${orDash(food.kcal, " kcal")} · ${orDash(food.proteinG, " g protein")} · ${orDash(food.fatG, " g fat")} · ${orDash(food.carbsG, " g carbs")} · ${orDash(food.fiberG, " g fiber")}`;

const printFood = (food: Food) => {
  printRecord([
    ["id", food.id],
    ["food", food.brand ? `${food.name} (${food.brand})` : food.name],
    [food.per === "serving" ? `per serving (${food.servingG} g)` : "per 100 g", figures(food)],
    ["also", `${orDash(food.sugarsG, " g sugars")} · ${orDash(food.sodiumMg, " mg sodium")}`],
    ...(food.measures.length > 0 ? [["measures", food.measures.map((m) => `${m.name} ${m.grams} g`).join(", ")] as [string, string]] : []),
  ]);
  printLine(`Log it: fit food add --food ${food.id} --portion ${food.servingG === null ? "100g" : "1serving"}`);
};

/** `fit food custom …`: foods of one's own, found by `food search` and logged by `food add --food custom:…`. */
export const customFoodCommands = (food: Command): void => {
  const custom = food.command("custom").description("your own foods: add, list, edit, delete; log one with food add --food custom:<id>");

  withFoodOptions(
    custom
      .command("add")
      .description("make a food of your own from its label: figures per 100 g, or per serving with --serving grams")
      .argument("<name>", "what it is called"),
  ).action(async (name: string, options: FoodOptions, command: Command) => {
    const context = contextOf(command);
    if (options.kcal === undefined || options.protein === undefined) throw new CliError("--kcal and --protein are required", exitCodes.usage);
    const body = { per: "100g" as const, ...foodFields(name, options), name, kcal: options.kcal, proteinG: options.protein };
    const made = await call(await context.connection(), operations.createCustomFood, { body });
    if (context.json) return printJson(made);
    printLine("Made your food:");
    printFood(made);
  });

  custom
    .command("list")
    .description("your foods with their ids and figures per 100 g")
    .action(async (_options: object, command: Command) => {
      const context = contextOf(command);
      const foods = await call(await context.connection(), operations.listCustomFoods, {});
      if (context.json) return printJson(foods);
      if (foods.length === 0) return printLine("No foods of your own yet: fit food custom add <name> --kcal … --protein …");
      printTable(
        ["id", "food", "kcal /100 g", "protein g", "fat g", "carbs g", "fiber g", "serving g"],
        foods.map((f) => [f.id, f.brand ? `${f.name} (${f.brand})` : f.name, ...[f.per100g.kcal, f.per100g.proteinG, f.per100g.fatG, f.per100g.carbsG, f.per100g.fiberG].map((v) => orDash(v)), orDash(f.servingG)]),
      );
    });

  withFoodOptions(
    custom
      .command("edit")
      .description("change what you give of one of your foods; recipes holding it follow, items already logged keep their numbers")
      .argument("<id>", "the food's id (custom:…)")
      .option("--name <name>", "a new name"),
  ).action(async (id: string, options: FoodOptions & { name?: string }, command: Command) => {
    const context = contextOf(command);
    const body = foodFields(options.name, options);
    if (Object.keys(body).length === 0) throw new CliError("give something to change: --name, --kcal, --protein, …", exitCodes.usage);
    const edited = await call(await context.connection(), operations.editCustomFood, { params: { id }, body });
    if (context.json) return printJson(edited);
    printLine("Changed your food:");
    printFood(edited);
  });

  addDeleteCommand(custom, "food", operations.deleteCustomFood, "delete one of your foods by its id (refused while a recipe holds it)");
};

/** `--ingredient "usda:173944=120g"` or `--ingredient "banana = 1 serving"`: a food (id or words) and a portion. */
const ingredient = (value: string, previous: { food: string; portion: FoodPortionChoice }[] = []) => {
  const at = value.lastIndexOf("=");
  if (at <= 0) throw new InvalidArgumentError(`not an ingredient: "<food>=<portion>", the food an id or words, the portion ${PORTION_HELP}`);
  return [...previous, { food: value.slice(0, at).trim(), portion: portion(value.slice(at + 1)) }];
};

const ingredientsOf = async (connection: Connection, given: { food: string; portion: FoodPortionChoice }[], quiet: boolean) => {
  const ingredients = [];
  for (const { food, portion: amount } of given) {
    const picked = await pickFood(connection, food);
    if (picked.matched !== null && !quiet) printLine(`Picked ${picked.id} ${picked.matched} for "${food}"`);
    ingredients.push({ foodId: picked.id, portion: amount });
  }
  return ingredients;
};

const printRecipe = (recipe: Dish) => {
  printRecord([
    ["id", recipe.id],
    ["recipe", recipe.name],
    ["makes", `${recipe.servings} servings of ${recipe.servingG} g (${recipe.weightG} g${recipe.cookedWeightG === null ? "" : " cooked"})`],
    ["per serving", figures(recipe.perServing)],
    ["per 100 g", figures(recipe.per100g)],
  ]);
  printTable(["food", "id", "g", "kcal", "protein g"], recipe.ingredients.map((i) => [i.name, i.foodId, i.grams, i.kcal, i.proteinG]));
  printLine(`Log it: fit food add --food ${recipe.id} --portion 1serving`);
};

export const recipeCommands = (program: Command): void => {
  const recipe = program.command("recipe").description("your recipes: add, list, show, delete; log one with food add --food recipe:<id>");

  recipe
    .command("add")
    .description("make a recipe from foods and amounts; its figures per serving are computed")
    .argument("<name>", "what the dish is called")
    .requiredOption("--servings <n>", "how many servings it makes", number)
    .requiredOption(
      "--ingredient <food=portion>",
      `a food and how much of it, repeated for each: "usda:173944=120g", "custom:<id>=1 serving", "rolled oats=50g" ` +
        `(words pick the best match of food search); the portion is ${PORTION_HELP}`,
      ingredient,
    )
    .option("--cooked <grams>", "what the cooked dish weighs (default: the sum of its ingredients)", grams)
    .action(async (name: string, options: { servings: number; ingredient: { food: string; portion: FoodPortionChoice }[]; cooked?: number }, command: Command) => {
      const context = contextOf(command);
      const connection = await context.connection();
      const ingredients = await ingredientsOf(connection, options.ingredient, context.json);
      const made = await call(connection, operations.createRecipe, {
        body: { name, servings: options.servings, ...onlyGiven({ cookedWeightG: options.cooked }), ingredients },
      });
      if (context.json) return printJson(made);
      printRecipe(made);
    });

  recipe
    .command("list")
    .description("your recipes with their ids and figures per serving")
    .action(async (_options: object, command: Command) => {
      const context = contextOf(command);
      const recipes = await call(await context.connection(), operations.listRecipes, {});
      if (context.json) return printJson(recipes);
      if (recipes.length === 0) return printLine('No recipes yet: fit recipe add <name> --servings 2 --ingredient "usda:173944=120g" …');
      printTable(
        ["id", "recipe", "servings", "serving g", "kcal", "protein g", "fat g", "carbs g", "fiber g"],
        recipes.map((r) => [r.id, r.name, r.servings, r.servingG, ...[r.perServing.kcal, r.perServing.proteinG, r.perServing.fatG, r.perServing.carbsG, r.perServing.fiberG].map((v) => orDash(v))]),
      );
    });

  recipe
    .command("show")
    .description("a recipe's ingredients and its figures per serving and per 100 g")
    .argument("<id>", "the recipe's id (recipe:…)")
    .action(async (id: string, _options: object, command: Command) => {
      const context = contextOf(command);
      const shown = await call(await context.connection(), operations.getRecipe, { params: { id } });
      if (context.json) return printJson(shown);
      printRecipe(shown);
    });

  addDeleteCommand(recipe, "recipe", operations.deleteRecipe, "delete a recipe by its id; items already logged from it keep their numbers");
};
