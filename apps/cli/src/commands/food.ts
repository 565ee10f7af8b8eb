import { operations, type Meal } from "@fit/contracts";
import type { Command } from "commander";
import { day, number } from "../args.ts";
import { call } from "../client.ts";
import { contextOf } from "../context.ts";
import { localDay, printJson, printLine, printTable } from "../output.ts";

interface AddOptions {
  kcal: number;
  protein: number;
  carbs?: number;
  fat?: number;
  meal?: Meal;
  date?: string;
  note?: string;
}

const of = (value: number, target: number | null | undefined, unit: string) =>
  target == null ? `${value} ${unit}` : `${value} of ${target} ${unit}`;

export const foodCommands = (program: Command): void => {
  program
    .command("food")
    .description("food items")
    .command("add")
    .description("log a food item")
    .argument("<name>", "what was eaten")
    .requiredOption("--kcal <kcal>", "energy, kcal", number)
    .requiredOption("--protein <g>", "protein, grams", number)
    .option("--carbs <g>", "carbohydrates, grams", number)
    .option("--fat <g>", "fat, grams", number)
    .option("--meal <meal>", "breakfast, lunch, dinner or snack")
    .option("--date <day>", "the day, YYYY-MM-DD (default your today)", day)
    .option("--note <text>", "a note")
    .action(async (name: string, options: AddOptions, command: Command) => {
      const context = contextOf(command);
      const body = {
        name, date: options.date ?? localDay(), kcal: options.kcal, proteinG: options.protein,
        carbsG: options.carbs, fatG: options.fat, meal: options.meal, note: options.note,
      };
      const item = await call(await context.connection(), operations.logFoodItem, { body });
      if (context.json) return printJson(item);
      printLine(`Logged ${item.name}: ${item.kcal} kcal, ${item.proteinG} g protein (${item.meal ?? "no meal"}, ${item.date})`);
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
