import { FoodId, Gtin, operations, type Food, type FoodNutrients } from "@fit/contracts";
import { InvalidArgumentError, type Command } from "commander";
import type { z } from "zod";
import { number } from "../args.ts";
import { call } from "../client.ts";
import type { Connection } from "../config.ts";
import { contextOf } from "../context.ts";
import { CliError, exitCodes, refused } from "../exit.ts";
import { orDash, printJson, printLine, printRecord, printTable } from "../output.ts";

type Per100g = z.output<typeof FoodNutrients>;

const NUTRIENT_HEAD = ["kcal", "protein g", "fat g", "carbs g", "fiber g"];
const nutrientCells = (per100g: Per100g) => [per100g.kcal, per100g.proteinG, per100g.fatG, per100g.carbsG, per100g.fiberG].map((value) => orDash(value));

/** An id (`usda:173944`, `off:3017620422003`, `custom:…`, `recipe:…`) is a food's id; digits alone are a barcode; anything else is words to search for. */
const isFoodId = (text: string) => /^(usda|off|custom|recipe):/i.test(text.trim());
const isBarcode = (text: string) => /^\d{8,14}$/.test(text.trim());

const limit = (value: string): number => {
  const n = number(value);
  if (!Number.isInteger(n) || n < 1 || n > 50) throw new InvalidArgumentError("not a whole number from 1 to 50");
  return n;
};

export interface PickedFood {
  id: string;
  /** The food's name when words picked it (their best match), so the person can be told; null for an id or a barcode given. */
  matched: string | null;
}

/** `--food` as given: a food's id as it is, or words as their best match (none: exit 4, nothing sent after). */
export const pickFood = async (connection: Connection, idOrWords: string): Promise<PickedFood> => {
  const text = idOrWords.trim();
  if (isBarcode(text)) {
    return { id: (await barcodeFood(connection, text)).id, matched: null };
  }
  if (isFoodId(text)) {
    const id = FoodId.safeParse(text.toLowerCase());
    if (!id.success) throw refused(id.error);
    return { id: id.data, matched: null };
  }
  const [best] = await call(connection, operations.searchFoods, { query: { q: text, limit: 1 } });
  if (!best) throw new CliError(`no food matches "${text}"; try other words, or \`fit food search\``, exitCodes.notFound);
  return { id: best.id, matched: best.name };
};

/** The product of a barcode (Open Food Facts, when the server enables it); a malformed one is refused before anything is sent. */
const barcodeFood = async (connection: Connection, code: string) => {
  const gtin = Gtin.safeParse(code.trim());
  if (!gtin.success) throw refused(gtin.error);
  return call(connection, operations.getFoodByBarcode, { params: { code: gtin.data } });
};

/** A food with its values and its measures, numbered for `food add --portion`. */
const printFood = (json: boolean, shown: z.output<typeof Food>) => {
  if (json) return printJson(shown);
  const { per100g } = shown;
  printRecord([
    ["id", shown.id],
    ["food", shown.name],
    ["category", shown.category],
    ["per 100 g", `${orDash(per100g.kcal, " kcal")} · ${orDash(per100g.proteinG, " g protein")} · ${orDash(per100g.fatG, " g fat")} · ${orDash(per100g.carbsG, " g carbs")} · ${orDash(per100g.fiberG, " g fiber")}`],
    ["also", `${orDash(per100g.sugarsG, " g sugars")} · ${orDash(per100g.sodiumMg, " mg sodium")}`],
    ...(shown.caveat ? [["caveat", shown.caveat] as [string, string]] : []),
  ]);
  if (shown.portions.length === 0) printLine("No household measures: log it in grams (--portion 150g).");
  else printTable(["#", "portion", "g"], shown.portions.map((p) => [p.id, `${p.amount} ${p.unit}`, p.grams]));
  const measure = shown.portions[0]?.id;
  const measures = measure === undefined ? "" : `, ${measure} (measure #${measure}) or 2x${measure} (two of it)`;
  printLine(`Log it: fit food add --food ${shown.id} --portion 150g${measures}`);
};

/** `fit food search`, `fit food recent`, `fit food show` and `fit food barcode`: the food database (USDA SR Legacy), your own foods and packaged foods by barcode, read-only. */
export const foodDatabaseCommands = (food: Command): void => {
  food
    .command("search")
    .description("search your foods and recipes, then the food database (USDA SR Legacy), by the words you'd use; values per 100 g, best match first")
    .argument("<words...>", "what the food is called: chicken breast, greek yogurt, banan (typos are fine)")
    .option("--limit <n>", "at most this many foods, 1 to 50", limit, 10)
    .action(async (words: string[], options: { limit: number }, command: Command) => {
      const context = contextOf(command);
      const q = words.join(" ");
      const foods = await call(await context.connection(), operations.searchFoods, { query: { q, limit: options.limit } });
      if (context.json) return printJson(foods);
      if (foods.length === 0) return printLine(`No food matches "${q}".`);
      printTable(["id", "food (per 100 g)", ...NUTRIENT_HEAD], foods.map((match) => [match.id, match.name, ...nutrientCells(match.per100g)]));
    });

  food
    .command("recent")
    .description("the foods you logged lately and often, first the ones to log again; values per 100 g")
    .option("--limit <n>", "at most this many foods, 1 to 50", limit, 10)
    .action(async (options: { limit: number }, command: Command) => {
      const context = contextOf(command);
      const foods = await call(await context.connection(), operations.listRecentFoods, { query: { limit: options.limit } });
      if (context.json) return printJson(foods);
      if (foods.length === 0) return printLine("No food of the database logged in the last 90 days: fit food search, then fit food add --food.");
      printTable(
        ["id", "food (per 100 g)", "times", "last", ...NUTRIENT_HEAD],
        foods.map((recent) => [recent.id, recent.name, recent.timesLogged, recent.lastLoggedOn, ...nutrientCells(recent.per100g)]),
      );
    });

  food
    .command("show")
    .description("a food (of the database, a product by its barcode, or your own food or recipe) with its values per 100 g and its measures, numbered for `food add --portion`")
    .argument("<food...>", "the food's id (usda:173944, off:…, custom:…, recipe:…), a barcode (3017620422003), or words: their best match")
    .action(async (words: string[], _options: object, command: Command) => {
      const context = contextOf(command);
      const connection = await context.connection();
      const picked = await pickFood(connection, words.join(" "));
      printFood(context.json, await call(connection, operations.getFood, { params: { id: picked.id } }));
    });

  food
    .command("barcode")
    .description("a packaged food by its barcode (Open Food Facts, when the server enables it), like `food show`")
    .argument("<code>", "the digits under the bars: 8, 12, 13 or 14 of them")
    .action(async (code: string, _options: object, command: Command) => {
      const context = contextOf(command);
      printFood(context.json, await barcodeFood(await context.connection(), code));
    });
};
