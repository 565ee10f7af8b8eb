import { operations, type Targets } from "@fit/contracts";
import { formatWeight, kgOf, type Typed, type UnitSystem, type WeightUnit } from "@fit/units";
import type { Command } from "commander";
import { day, number } from "../args.ts";
import { call } from "../client.ts";
import { contextOf } from "../context.ts";
import { orDash, printJson, printRecord } from "../output.ts";
import { inUnits, readIn, shownIn, weight } from "../units.ts";

interface SetOptions {
  kcal?: number;
  protein?: number;
  goal?: Typed<WeightUnit>;
  startWeight?: Typed<WeightUnit>;
  startDate?: string;
  targetDate?: string;
}

const dayOf = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString().slice(0, 10));

const weightOrDash = (kg: number | null | undefined, units: UnitSystem) => orDash(kg == null ? kg : formatWeight(kg, units));

const printTargets = (targets: Targets | null, units: UnitSystem) =>
  printRecord([
    ["daily kcal", orDash(targets?.dailyKcalTarget)],
    ["protein", orDash(targets?.proteinTargetG, " g")],
    ["goal weight", weightOrDash(targets?.goalWeightKg, units)],
    ["start weight", weightOrDash(targets?.startWeightKg, units)],
    ["start date", orDash(dayOf(targets?.startDate ?? null))],
    ["target date", orDash(dayOf(targets?.targetDate ?? null))],
  ]);

export const targetsCommands = (program: Command): void => {
  const targets = program.command("targets").description("goals: daily kcal and protein, goal weight");

  targets
    .command("show")
    .description("your targets")
    .action(async (_options: object, command: Command) => {
      const context = contextOf(command);
      const current = await call(await context.connection(), operations.getTargets);
      if (context.json) return printJson(current);
      printTargets(current, shownIn(await context.units()));
    });

  targets
    .command("set")
    .description("change the targets given; the others keep their values")
    .option("--kcal <kcal>", "daily kcal target (500 to 10000)", number)
    .option("--protein <g>", "daily protein target, grams (0 to 1000)", number)
    .option("--goal <weight>", "goal weight, in your profile's units or with its own (76kg, 168lb, 12st)", weight)
    .option("--start-weight <weight>", "start weight, as --goal", weight)
    .option("--start-date <day>", "start day, YYYY-MM-DD", day)
    .option("--target-date <day>", "day to reach the goal, YYYY-MM-DD", day)
    .action(async (options: SetOptions, command: Command) => {
      const context = contextOf(command);
      const connection = await context.connection();
      // PUT replaces the whole set, so the current values are read first: `--kcal` alone must not clear protein.
      const current = await call(connection, operations.getTargets);
      const kg = async (typed: Typed<WeightUnit> | undefined) => (typed === undefined ? undefined : kgOf(typed, await readIn(typed, context)));
      const body = {
        dailyKcalTarget: options.kcal ?? current?.dailyKcalTarget ?? null,
        proteinTargetG: options.protein ?? current?.proteinTargetG ?? null,
        goalWeightKg: (await kg(options.goal)) ?? current?.goalWeightKg ?? null,
        startWeightKg: (await kg(options.startWeight)) ?? current?.startWeightKg ?? null,
        startDate: options.startDate ? Date.parse(options.startDate) : (current?.startDate ?? null),
        targetDate: options.targetDate ? Date.parse(options.targetDate) : (current?.targetDate ?? null),
      };
      const units = shownIn(await context.units());
      const saved = await inUnits(units, call(connection, operations.putTargets, { body }));
      if (context.json) return printJson(saved);
      printTargets(saved, units);
    });
};
