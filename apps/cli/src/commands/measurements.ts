import { MeasurementSite, operations } from "@fit/contracts";
import { cmOf, formatLength, lengthFieldText, lengthUnitName, type LengthUnit, type Typed } from "@fit/units";
import type { Command } from "commander";
import { instant, number, oneOf } from "../args.ts";
import { call } from "../client.ts";
import { contextOf } from "../context.ts";
import { addDeleteCommand } from "./delete-by-id.ts";
import { label } from "../labels.ts";
import { localTime, printJson, printLine, printMore, printTable } from "../output.ts";
import { inUnits, length, readIn, shownIn } from "../units.ts";

interface ListOptions {
  limit: number;
  site?: MeasurementSite;
  from?: number;
  to?: number;
  cursor?: string;
}

const sites = MeasurementSite.options.map(label).join(", ");

export const measurementsCommands = (program: Command): void => {
  const measurements = program.command("measurements").description("body measurements: waist, hips, arms…");

  measurements
    .command("add")
    .description("log a body measurement")
    .argument("<site>", `where: ${sites}`, oneOf(MeasurementSite.options))
    .argument("<length>", "in your profile's units (81.5, 32), or with its own: 81.5cm, 32in (5 to 300 cm)", length)
    .option("--at <time>", "when it was measured, ISO 8601 (default now)", instant)
    .action(async (site: MeasurementSite, typed: Typed<LengthUnit>, options: { at?: number }, command: Command) => {
      const context = contextOf(command);
      const typedIn = await readIn(typed, context);
      const body = { site, valueCm: cmOf(typed, typedIn), ts: options.at };
      const created = await inUnits(typedIn, call(await context.connection(), operations.logMeasurement, { body }));
      if (context.json) return printJson(created);
      printLine(`Logged ${label(site)} ${formatLength(body.valueCm, shownIn(await context.units()))} (id ${created.id})`);
    });

  measurements
    .command("list")
    .description("measurements, newest first, with their ids")
    .option("--site <site>", `only this site: ${sites}`, oneOf(MeasurementSite.options))
    .option("--limit <n>", "how many (1 to 200)", number, 20)
    .option("--from <time>", "from this time on, ISO 8601", instant)
    .option("--to <time>", "before this time, ISO 8601", instant)
    .option("--cursor <cursor>", "the next page, as the previous one printed it")
    .action(async (options: ListOptions, command: Command) => {
      const context = contextOf(command);
      const query = { site: options.site, limit: options.limit, from: options.from, to: options.to, cursor: options.cursor };
      const page = await call(await context.connection(), operations.listMeasurements, { query });
      if (context.json) return printJson(page);
      if (page.items.length === 0) return printLine("No measurements.");
      const units = shownIn(await context.units());
      printTable(
        ["id", "when", "site", lengthUnitName(units)],
        page.items.map((m) => [m.id, localTime(m.ts), label(m.site), lengthFieldText(m.valueCm, units)]),
      );
      printMore(page.nextCursor);
    });

  addDeleteCommand(measurements, "measurement", operations.deleteMeasurement);
};
