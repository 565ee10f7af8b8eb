import { Meal, operations, type DayMark, type FoodItem, type FoodPortionChoice, type NutritionDay } from "@fit/contracts";
import type { Command } from "commander";
import type { z } from "zod";
import { day, dayOrWord, number, oneOf, onlyGiven } from "../args.ts";
import { call } from "../client.ts";
import { contextOf } from "../context.ts";
import { macrosText } from "./dashboard.ts";
import { addDeleteCommand } from "./delete-by-id.ts";
import { CliError, exitCodes } from "../exit.ts";
import { portion, PORTION_HELP, withCount } from "../food-portion.ts";
import { foodDatabaseCommands, pickFood } from "./foods.ts";
import { customFoodCommands } from "./own-foods.ts";
import { localDay, orDash, printJson, printLine, printTable } from "../output.ts";
import { photoFile, printRead } from "../photo.ts";

interface NumberOptions {
  kcal?: number;
  protein?: number;
  carbs?: number;
  fat?: number;
  fiber?: number;
}

interface AddOptions extends NumberOptions {
  food?: string;
  portion?: FoodPortionChoice;
  count?: number;
  meal?: Meal;
  date?: string;
  note?: string;
}

interface EditOptions extends NumberOptions {
  name?: string;
  meal?: Meal;
  date?: string;
  note?: string;
}

type Item = z.output<typeof FoodItem>;

/** `2 × cup, sliced (300 g)` or `150 g`: how much of a food of the database the item is. */
const portionText = (item: Item) => {
  if (item.grams === null) return "";
  if (item.unit === "g") return `${item.grams} g`;
  return `${item.quantity ?? 1} × ${item.unit ?? "portion"} (${item.grams} g)`;
};

const itemLine = (item: Item) => {
  const what = item.grams === null ? item.name : `${item.name}, ${portionText(item)}`;
  const macros = [[item.fatG, "fat"], [item.carbsG, "carbs"], [item.fiberG, "fiber"]] as const;
  const more = item.source === null ? "" : macros.map(([value, name]) => `, ${orDash(value, ` g ${name}`)}`).join("");
  const source = item.source === null ? "" : ` from ${item.source}`;
  return `${what}: ${item.kcal} kcal, ${item.proteinG} g protein${more} (${item.meal ?? "no meal"}, ${item.date})${source}`;
};

/** Where an item's numbers came from: the food database, the coach's estimate, or typed (a dash). */
const sourceOf = (item: Item) => item.source ?? item.estimate?.source ?? "–";

const of = (value: number, target: number | null | undefined, unit: string) =>
  target == null ? `${value} ${unit}` : `${value} of ${target} ${unit}`;

const TYPED_ONLY = { kcal: "--kcal", protein: "--protein", carbs: "--carbs", fat: "--fat", fiber: "--fiber" } as const;

/** `2026-11-20: counted (marked complete) · 3 items, 1850 kcal`. */
const dayLine = ({ date, mark, counted, itemCount, kcal }: NutritionDay) => {
  const why = mark === "auto" ? (counted ? "has items" : "nothing logged") : `marked ${mark}`;
  return `${date}: ${counted ? "counted" : "not counted"} (${why}) · ${itemCount} ${itemCount === 1 ? "item" : "items"}, ${kcal} kcal`;
};

/** What is wrong with the options of `food add` before anything is sent, or undefined. */
const addMistake = (name: string | undefined, options: AddOptions): string | undefined => {
  if (options.food === undefined) {
    if (options.portion !== undefined || options.count !== undefined) return "--portion goes with --food (a food of the database)";
    if (name === undefined) return "name what was eaten, or pick a food of the database with --food";
    if (options.kcal === undefined) return "--kcal is required for a typed item (or log a food of the database with --food and --portion)";
    return undefined;
  }
  const typed = Object.entries(TYPED_ONLY).filter(([key]) => options[key as keyof typeof TYPED_ONLY] !== undefined);
  if (typed.length > 0) return `${typed.map(([, flag]) => flag).join(", ")}: computed from the food and the portion; leave out`;
  if (options.portion === undefined) return `--portion is required with --food: ${PORTION_HELP}`;
  return undefined;
};

/** A bare number the food has no measure for was most likely meant as grams: say how to write those. */
const withGramsHint = (error: unknown, measure: number): unknown =>
  error instanceof CliError && error.status === 400 && error.message.startsWith("portion.measure")
    ? new CliError(`${error.message}; for ${measure} grams write --portion ${measure}g`, error.code, error.status)
    : error;

export const foodCommands = (program: Command): void => {
  const food = program.command("food").description("food items: add, photo, list, edit, delete, copy; the food database: search, recent, show; your own foods: custom");

  food
    .command("add")
    .description(
      "log a food item: typed numbers (<name> --kcal …), or a food of the database and a portion (--food … --portion …), " +
        "whose kcal, protein, fat, carbs and fiber the server computes",
    )
    .argument("[name]", "what was eaten (with --food: default the food's name)")
    .option("--food <id|barcode|words>", "a food: its id (usda:173944, off:…, custom:…, recipe:…), a barcode (3017620422003), or words, which pick the best match of `food search`")
    .option("--portion <portion>", `with --food, how much: ${PORTION_HELP}`, portion)
    .option("--count <n>", "with --portion <measure's number>, how many of it (same as --portion 2x3)", number)
    .option("--kcal <kcal>", "typed: energy, kcal (required without --food)", number)
    .option("--protein <g>", "typed: protein, grams (default 0, as the web form)", number)
    .option("--carbs <g>", "typed: carbohydrates, grams", number)
    .option("--fat <g>", "typed: fat, grams", number)
    .option("--fiber <g>", "typed: fiber, grams", number)
    .option("--meal <meal>", "breakfast, lunch, dinner or snack", oneOf(Meal.options))
    .option("--date <day>", "the day, YYYY-MM-DD (default your today)", day)
    .option("--note <text>", "a note")
    .action(async (name: string | undefined, options: AddOptions, command: Command) => {
      const context = contextOf(command);
      const mistake = addMistake(name, options);
      if (mistake) throw new CliError(mistake, exitCodes.usage);
      const chosen = options.portion === undefined ? undefined : withCount(options.portion, options.count);
      if (typeof chosen === "string") throw new CliError(chosen, exitCodes.usage);
      const connection = await context.connection();
      const common = { date: options.date ?? localDay(), meal: options.meal, note: options.note };
      let body;
      if (options.food === undefined) {
        body = {
          ...common, name, kcal: options.kcal, proteinG: options.protein ?? 0, carbsG: options.carbs, fatG: options.fat, fiberG: options.fiber,
        };
      } else {
        const picked = await pickFood(connection, options.food);
        if (picked.matched !== null && !context.json) {
          printLine(`Picked ${picked.id} ${picked.matched}, the best match for "${options.food.trim()}" (others: fit food search)`);
        }
        body = { ...common, name, foodId: picked.id, portion: chosen };
      }
      const item = await call(connection, operations.logFoodItem, { body }).catch((error: unknown) => {
        throw chosen?.measure !== undefined ? withGramsHint(error, chosen.measure) : error;
      });
      if (context.json) return printJson(item);
      printLine(`Logged ${itemLine(item)}`);
    });

  food
    .command("photo")
    .description("log a food from a photo of its nutrition-facts label (US per serving, EU per 100 g): JPEG, PNG or WebP")
    .argument("<file>", "the photo")
    .option("--meal <meal>", "breakfast, lunch, dinner or snack", oneOf(Meal.options))
    .option("--servings <n>", "servings eaten, of the label's serving size (default 1)", number)
    .option("--grams <g>", "grams eaten (instead of servings; needed for a label per 100 g)", number)
    .option("--name <name>", "what it is (default \"Food from a label\")")
    .option("--date <day>", "the day, YYYY-MM-DD (default your today)", day)
    .action(async (file: string, options: { meal?: Meal; servings?: number; grams?: number; name?: string; date?: string }, command: Command) => {
      const context = contextOf(command);
      if (options.servings !== undefined && options.grams !== undefined) throw new CliError("give --servings or --grams, not both", exitCodes.usage);
      const query = { date: options.date ?? localDay(), meal: options.meal, servings: options.servings, grams: options.grams, name: options.name };
      const logged = await call(await context.connection(), operations.logFoodPhoto, { query, file: await photoFile(file) });
      if (context.json) return printJson(logged);
      printRead(logged.read);
      for (const item of logged.items) {
        const range = item.estimate ? ` (estimate ${item.estimate.kcal.low}–${item.estimate.kcal.high} kcal, ${item.estimate.source})` : "";
        printLine(`Logged ${itemLine(item)}${range} (id ${item.id})`);
      }
    });

  foodDatabaseCommands(food);
  customFoodCommands(food);

  food
    .command("list")
    .description("a day's food items with their ids, oldest first: macros, the portion, and where the numbers came from")
    .option("--date <day>", "the day, YYYY-MM-DD (default your today)", day)
    .action(async (options: { date?: string }, command: Command) => {
      const context = contextOf(command);
      const date = options.date ?? localDay();
      const items = await call(await context.connection(), operations.listFoodItems, { query: { date } });
      if (context.json) return printJson(items);
      if (items.length === 0) return printLine(`Nothing logged on ${date}.`);
      printTable(
        ["id", "meal", "food", "kcal", "protein g", "carbs g", "fat g", "fiber g", "portion", "source"],
        items.map((item) => [
          item.id, item.meal ?? "", item.name, item.kcal, item.proteinG, orDash(item.carbsG), orDash(item.fatG), orDash(item.fiberG),
          portionText(item), sourceOf(item),
        ]),
      );
    });

  food
    .command("edit")
    .description("correct a food item: only the options given change; --date moves it to another day")
    .argument("<id>", "the item's id (as `food list` prints it)")
    .option("--name <name>", "what was eaten")
    .option("--kcal <kcal>", "energy, kcal", number)
    .option("--protein <g>", "protein, grams", number)
    .option("--carbs <g>", "carbohydrates, grams", number)
    .option("--fat <g>", "fat, grams", number)
    .option("--fiber <g>", "fiber, grams", number)
    .option("--meal <meal>", "breakfast, lunch, dinner or snack", oneOf(Meal.options))
    .option("--date <day>", "move it to this day, YYYY-MM-DD", day)
    .option("--note <text>", "a note")
    .action(async (id: string, options: EditOptions, command: Command) => {
      const context = contextOf(command);
      const body = onlyGiven({
        name: options.name, kcal: options.kcal, proteinG: options.protein, carbsG: options.carbs, fatG: options.fat,
        fiberG: options.fiber, meal: options.meal, date: options.date, note: options.note,
      });
      const item = await call(await context.connection(), operations.editFoodItem, { params: { id }, body });
      if (context.json) return printJson(item);
      printLine(`Saved ${itemLine(item)}`);
    });

  food
    .command("copy")
    .description("log again: copy a past meal (--meal) or a whole day to another day, and meal, with the same figures")
    .requiredOption("--from <day>", "the day to copy from: YYYY-MM-DD, yesterday or today", dayOrWord)
    .option("--meal <meal>", "only this meal of it (default the whole day)", oneOf(Meal.options))
    .option("--to <day>", "the day to log the copies on: YYYY-MM-DD, today or yesterday (default today)", dayOrWord)
    .option("--to-meal <meal>", "log them in this meal (default each in its own)", oneOf(Meal.options))
    .action(async (options: { from: string; meal?: Meal; to?: string; toMeal?: Meal }, command: Command) => {
      const context = contextOf(command);
      const body = { from: { date: options.from, meal: options.meal }, to: { date: options.to ?? localDay(), meal: options.toMeal } };
      const copies = await call(await context.connection(), operations.copyFoodItems, { body });
      if (context.json) return printJson(copies);
      for (const item of copies) printLine(`Logged ${itemLine(item)}`);
    });

  addDeleteCommand(food, "food item", operations.deleteFoodItem);

  food
    .command("day")
    .description("whether a day counts for the expenditure estimate; mark it complete (counts however little is logged) or excluded")
    .argument("<day>", "the day: YYYY-MM-DD, today or yesterday", dayOrWord)
    .option("--complete", "everything eaten that day is logged: count it, even when thin or empty")
    .option("--exclude", "the log is not the whole day: never count it")
    .option("--auto", "back to the default: the day counts when it has items")
    .action(async (date: string, options: { complete?: true; exclude?: true; auto?: true }, command: Command) => {
      const context = contextOf(command);
      const marks = ([["complete", options.complete], ["excluded", options.exclude], ["auto", options.auto]] as const)
        .filter(([, given]) => given)
        .map(([mark]): DayMark => mark);
      if (marks.length > 1) throw new CliError("give one of --complete, --exclude, --auto", exitCodes.usage);
      const connection = await context.connection();
      const result = marks[0] === undefined
        ? await call(connection, operations.getNutritionDay, { params: { date } })
        : await call(connection, operations.markNutritionDay, { params: { date }, body: { mark: marks[0] } });
      if (context.json) return printJson(result);
      printLine(dayLine(result));
    });

  program
    .command("today")
    .description("the day's food against your targets")
    .option("--date <day>", "another day, YYYY-MM-DD", day)
    .action(async (options: { date?: string }, command: Command) => {
      const context = contextOf(command);
      const connection = await context.connection();
      const date = options.date ?? localDay();
      const [items, dashboard] = await Promise.all([
        call(connection, operations.listFoodItems, { query: { date } }),
        call(connection, operations.getDashboard, { query: { date } }),
      ]);
      const total = dashboard.nutritionToday;
      const targets = dashboard.targets;
      if (context.json) return printJson({ date, items, total, targets });
      if (items.length === 0) printLine(`Nothing logged on ${date}.`);
      else {
        printTable(
          ["meal", "food", "kcal", "protein g"],
          items.map((item) => [item.meal ?? "", item.name, item.kcal, item.proteinG]),
        );
      }
      const kcal = of(total?.kcal ?? 0, targets?.dailyKcalTarget, "kcal");
      const protein = of(total?.proteinG ?? 0, targets?.proteinTargetG, "g protein");
      const adherence = total?.adherence ? ` · ${total.adherence} target` : "";
      const macros = total ? ` · ${macrosText(total)}` : "";
      printLine(`${date}: ${kcal} · ${protein}${macros}${adherence}${total?.hitProtein ? " · protein hit" : ""}`);
    });
};
