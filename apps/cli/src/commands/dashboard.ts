import { operations, type Dashboard } from "@fit/contracts";
import { formatLength, formatWeight, type UnitSystem } from "@fit/units";
import type { Command } from "commander";
import { day } from "../args.ts";
import { call } from "../client.ts";
import { contextOf } from "../context.ts";
import { label } from "../labels.ts";
import { duration, km, localDay, orDash, printJson, printRecord } from "../output.ts";
import { shownIn } from "../units.ts";

const weightLine = (weight: Dashboard["weight"], units: UnitSystem): string => {
  if (!weight) return "nothing logged";
  const fat = weight.bodyFatPct === null ? "" : ` · ${weight.bodyFatPct} % fat`;
  const note = weight.note ? ` · "${weight.note}"` : "";
  return `${formatWeight(weight.latestKg, units)} (7-day average ${formatWeight(weight.weeklyAvgKg, units)})${fat}${note}`;
};

const trendLine = (trend: NonNullable<Dashboard["weight"]>["trend"], units: UnitSystem): string => {
  const first = trend[0];
  const last = trend.at(-1);
  if (!first || !last) return "–";
  return `${formatWeight(first.kg, units)} → ${formatWeight(last.kg, units)} over ${trend.length} day${trend.length === 1 ? "" : "s"} with readings`;
};

const targetsLine = (targets: Dashboard["targets"], units: UnitSystem): string => {
  if (!targets) return "none set";
  const parts = [
    targets.goalWeightKg === null ? null : `goal ${formatWeight(targets.goalWeightKg, units)}`,
    targets.dailyKcalTarget === null ? null : `${targets.dailyKcalTarget} kcal`,
    targets.proteinTargetG === null ? null : `${targets.proteinTargetG} g protein`,
  ];
  return parts.filter(Boolean).join(" · ") || "none set";
};

/**
 * `12.5 g fat · 40 g carbs · – fiber`, and how many items these leave out: a sum of what is known reads as
 * at least that much (docs/decisions/0067-day-macros-sum-what-is-known.md).
 */
export const macrosText = (total: NonNullable<Dashboard["nutritionToday"]>): string => {
  const sums = `${orDash(total.fatG, " g")} fat · ${orDash(total.carbsG, " g")} carbs · ${orDash(total.fiberG, " g")} fiber`;
  const unknown = total.macrosUnknownItems;
  return unknown === 0 ? sums : `${sums} (${unknown} item${unknown === 1 ? "" : "s"} without them)`;
};

const nutritionLine = (total: Dashboard["nutritionToday"]): string => {
  if (!total) return "nothing logged";
  const adherence = total.adherence ? ` · ${total.adherence} target` : "";
  return `${total.kcal} kcal · ${total.proteinG} g protein · ${macrosText(total)}${adherence}${total.hitProtein ? " · protein hit" : ""}`;
};

const measurementsLine = (dashboard: Dashboard, units: UnitSystem): string => {
  if (dashboard.measurementsLatest.length === 0) return "none";
  const sites = dashboard.measurementsLatest.map((m) => `${label(m.site)} ${formatLength(m.valueCm, units)}`).join(", ");
  return dashboard.shoulderToWaist === null ? sites : `${sites} · shoulder-to-waist ${dashboard.shoulderToWaist}`;
};

const weekLine = (week: Dashboard["workoutsThisWeek"]): string =>
  week.count === 0
    ? `none (${week.from} to ${week.to})`
    : `${week.count} workout${week.count === 1 ? "" : "s"} · ${duration(week.durationS)} · ${km(week.distanceM)} · ${week.energyKcal} kcal`;

export const dashboardCommand = (program: Command): void => {
  program
    .command("dashboard")
    .description("the home-screen snapshot")
    .option("--date <day>", "another day, YYYY-MM-DD (default your today)", day)
    .action(async (options: { date?: string }, command: Command) => {
      const context = contextOf(command);
      const date = options.date ?? localDay();
      const dashboard = await call(await context.connection(), operations.getDashboard, { query: { date } });
      if (context.json) return printJson(dashboard);
      const units = shownIn(await context.units());
      printRecord([
        ["weight", weightLine(dashboard.weight, units)],
        ["trend", dashboard.weight ? trendLine(dashboard.weight.trend, units) : "–"],
        ["targets", targetsLine(dashboard.targets, units)],
        [date, nutritionLine(dashboard.nutritionToday)],
        ["measurements", measurementsLine(dashboard, units)],
        ["this week", weekLine(dashboard.workoutsThisWeek)],
      ]);
    });
};
