import { Meal, operations, type FoodItem } from "@fit/contracts";
import type { Command } from "commander";
import type { z } from "zod";
import { day, number, oneOf, onlyGiven } from "../args.ts";
import { call } from "../client.ts";
import { contextOf } from "../context.ts";
import { localDay, orDash, printJson, printLine, printTable } from "../output.ts";

interface AddOptions {
  kcal: number;
  protein?: number;
  carbs?: number;
  fat?: number;
  meal?: Meal;
  date?: string;
  note?: string;
}

interface EditOptions extends Partial<AddOptions> {
  name?: string;
}

const itemLine = (item: z.output<typeof FoodItem>) =>
  `${item.name}: ${item.kcal} kcal, ${item.proteinG} g protein (${item.meal ?? "no meal"}, ${item.date})`;

const of = (value: number, target: number | null | undefined, unit: string) =>
  target == null ? `${value} ${unit}` : `${value} of ${target} ${unit}`;

export const foodCommands = (program: Command): void => {
  const food = program.command("food").description("food items: add, list, edit, delete");

  food
    .command("add")
    .description("log a food item")
    .argument("<name>", "what was eaten")
    .requiredOption("--kcal <kcal>", "energy, kcal", number)
    .option("--protein <g>", "protein, grams (default 0, as the web form)", number)
    .option("--carbs <g>", "carbohydrates, grams", number)
    .option("--fat <g>", "fat, grams", number)
    .option("--meal <meal>", "breakfast, lunch, dinner or snack", oneOf(Meal.options))
    .option("--date <day>", "the day, YYYY-MM-DD (default your today)", day)
    .option("--note <text>", "a note")
    .action(async (name: string, options: AddOptions, command: Command) => {
      const context = contextOf(command);
      const body = {
        name, date: options.date ?? localDay(), kcal: options.kcal, proteinG: options.protein ?? 0,
        carbsG: options.carbs, fatG: options.fat, meal: options.meal, note: options.note,
      };
      const item = await call(await context.connection(), operations.logFoodItem, { body });
      if (context.json) return printJson(item);
      printLine(`Logged ${itemLine(item)}`);
    });

  food
    .command("list")
    .description("a day's food items with their ids, oldest first")
    .option("--date <day>", "the day, YYYY-MM-DD (default your today)", day)
    .action(async (options: { date?: string }, command: Command) => {
      const context = contextOf(command);
      const date = options.date ?? localDay();
      const items = await call(await context.connection(), operations.listFoodItems, { query: { date } });
      if (context.json) return printJson(items);
      if (items.length === 0) return printLine(`Nothing logged on ${date}.`);
      printTable(
        ["id", "meal", "food", "kcal", "protein g", "carbs g", "fat g"],
        items.map((item) => [item.id, item.meal ?? "", item.name, item.kcal, item.proteinG, orDash(item.carbsG), orDash(item.fatG)]),
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
    .option("--meal <meal>", "breakfast, lunch, dinner or snack", oneOf(Meal.options))
    .option("--date <day>", "move it to this day, YYYY-MM-DD", day)
    .option("--note <text>", "a note")
    .action(async (id: string, options: EditOptions, command: Command) => {
      const context = contextOf(command);
      const body = onlyGiven({
        name: options.name, kcal: options.kcal, proteinG: options.protein, carbsG: options.carbs, fatG: options.fat,
        meal: options.meal, date: options.date, note: options.note,
      });
      const item = await call(await context.connection(), operations.editFoodItem, { params: { id }, body });
      if (context.json) return printJson(item);
      printLine(`Saved ${itemLine(item)}`);
    });

  food
    .command("delete")
    .description("delete a food item by its id")
    .argument("<id>", "the item's id")
    .action(async (id: string, _options: object, command: Command) => {
      const context = contextOf(command);
      const ack = await call(await context.connection(), operations.deleteFoodItem, { params: { id } });
      if (context.json) return printJson(ack);
      printLine(`Deleted food item ${id}`);
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
      printLine(`${date}: ${kcal} · ${protein}${adherence}${total?.hitProtein ? " · protein hit" : ""}`);
    });
};
