import { MeasurementSite, operations } from "@fit/contracts";
import type { Command } from "commander";
import { instant, number, oneOf } from "../args.ts";
import { call } from "../client.ts";
import { contextOf } from "../context.ts";
import { addDeleteCommand } from "./delete-by-id.ts";
import { label } from "../labels.ts";
import { localTime, printJson, printLine, printMore, printTable } from "../output.ts";

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
    .argument("<cm>", "centimetres (5 to 300)", number)
    .option("--at <time>", "when it was measured, ISO 8601 (default now)", instant)
    .action(async (site: MeasurementSite, cm: number, options: { at?: number }, command: Command) => {
      const context = contextOf(command);
      const created = await call(await context.connection(), operations.logMeasurement, { body: { site, valueCm: cm, ts: options.at } });
      if (context.json) return printJson(created);
      printLine(`Logged ${label(site)} ${cm} cm (id ${created.id})`);
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
      printTable(["id", "when", "site", "cm"], page.items.map((m) => [m.id, localTime(m.ts), label(m.site), m.valueCm]));
      printMore(page.nextCursor);
    });

  addDeleteCommand(measurements, "measurement", operations.deleteMeasurement);
};
