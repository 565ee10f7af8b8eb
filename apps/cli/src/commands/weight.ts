import { operations } from "@fit/contracts";
import { formatWeight, kgOf, weightFieldText, weightUnitName, type Typed, type WeightUnit } from "@fit/units";
import type { Command } from "commander";
import { instant, number } from "../args.ts";
import { call } from "../client.ts";
import { contextOf } from "../context.ts";
import { addDeleteCommand } from "./delete-by-id.ts";
import { label } from "../labels.ts";
import { localTime, orDash, printJson, printLine, printMore, printTable } from "../output.ts";
import { inUnits, readIn, shownIn, weight as typedWeight } from "../units.ts";

interface AddOptions {
  fat?: number;
  note?: string;
  at?: number;
}

interface ListOptions {
  limit: number;
  from?: number;
  to?: number;
  cursor?: string;
}

export const weightCommands = (program: Command): void => {
  const weight = program.command("weight").description("weigh-ins: add, list, delete");

  weight
    .command("add")
    .description("log a weigh-in")
    .argument("<weight>", "in your profile's units (81.4, 179.4, 12st 8lb), or with its own: 81.4kg, 179.4lb (9 to 320 kg)", typedWeight)
    .option("--fat <pct>", "body fat, percent (1 to 80)", number)
    .option("--note <text>", "a note (at most 500 characters)")
    .option("--at <time>", "when it was taken, ISO 8601 (default now)", instant)
    .action(async (typed: Typed<WeightUnit>, options: AddOptions, command: Command) => {
      const context = contextOf(command);
      const typedIn = await readIn(typed, context);
      const body = { weightKg: kgOf(typed, typedIn), bodyFatPct: options.fat, note: options.note, ts: options.at };
      const created = await inUnits(typedIn, call(await context.connection(), operations.logWeight, { body }));
      if (context.json) return printJson(created);
      const fat = options.fat === undefined ? "" : `, ${options.fat} % fat`;
      printLine(`Logged ${formatWeight(body.weightKg, shownIn(await context.units()))}${fat} (id ${created.id})`);
    });

  weight
    .command("list")
    .description("weigh-ins, newest first, with their ids")
    .option("--limit <n>", "how many (1 to 200)", number, 20)
    .option("--from <time>", "from this time on, ISO 8601", instant)
    .option("--to <time>", "before this time, ISO 8601", instant)
    .option("--cursor <cursor>", "the next page, as the previous one printed it")
    .action(async (options: ListOptions, command: Command) => {
      const context = contextOf(command);
      const query = { limit: options.limit, from: options.from, to: options.to, cursor: options.cursor };
      const page = await call(await context.connection(), operations.listWeights, { query });
      if (context.json) return printJson(page);
      if (page.items.length === 0) return printLine("No weigh-ins.");
      const units = shownIn(await context.units());
      printTable(
        ["id", "when", weightUnitName(units), "fat %", "note", "source"],
        page.items.map((r) => [r.id, localTime(r.ts), weightFieldText(r.weightKg, units), orDash(r.bodyFatPct), r.note ?? "", label(r.source)]),
      );
      printMore(page.nextCursor);
    });

  addDeleteCommand(weight, "weigh-in", operations.deleteWeight, "delete a weigh-in by its id (as `weight add` or `weight list` print it)");
};
