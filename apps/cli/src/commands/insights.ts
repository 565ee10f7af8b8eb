import { operations, type Insights } from "@fit/contracts";
import { formatWeight, lbFromKg, type UnitSystem } from "@fit/units";
import type { Command } from "commander";
import { day } from "../args.ts";
import { call } from "../client.ts";
import { contextOf } from "../context.ts";
import { orDash, printJson, printLine, printRecord } from "../output.ts";
import { shownIn } from "../units.ts";

/** A rate per week in the profile's weight unit; stones show it in pounds, as scales and apps do. */
const rateText = (kgPerWeek: number, units: UnitSystem): string => {
  const sign = kgPerWeek > 0 ? "+" : kgPerWeek < 0 ? "−" : "";
  const size = Math.abs(kgPerWeek);
  return units === "metric" ? `${sign}${size.toFixed(2)} kg/week` : `${sign}${lbFromKg(size).toFixed(1)} lb/week`;
};

const goalLine = (insights: Insights, units: UnitSystem): string => {
  const goal = insights.goal;
  if (!goal) return "no goal weight (fit targets set --goal …)";
  const reached = goal.goalDate ? `reached ${goal.goalDate} at this rate` : "not reached at this rate";
  const target = goal.targetDate ? ` · target date ${goal.targetDate}` : "";
  return `${formatWeight(goal.goalWeightKg, units)}: ${reached}${target}`;
};

const expenditureLine = (expenditure: Insights["expenditure"]): string => {
  if (!expenditure) return "– (no weigh-in yet)";
  const basis = expenditure.confidence === "formula"
    ? "from your profile alone; it moves to your data after a week of logged days"
    : `${expenditure.confidence} confidence, ${expenditure.daysCounted} logged days`;
  return `${expenditure.kcal} kcal/day (${expenditure.low}–${expenditure.high}) · ${basis}`;
};

const suggestionLine = (suggested: Insights["suggestedTargets"], units: UnitSystem): string => {
  if (!suggested) return "– (needs a goal weight and a weigh-in)";
  const line = `${suggested.dailyKcal} kcal · ${suggested.dailyProteinG} g protein · ${rateText(suggested.weeklyRateKg, units)}`;
  return suggested.reason ? `${line} · ${suggested.reason}` : line;
};

const printInsights = (insights: Insights, units: UnitSystem): void => {
  const counted = insights.days.filter((d) => d.counted).length;
  printRecord([
    ["as of", insights.date],
    ["trend weight", orDash(insights.trendKg === null ? null : formatWeight(insights.trendKg, units))],
    ["weekly rate", insights.weeklyRateKg === null ? "– (under a week of weigh-ins)" : `${rateText(insights.weeklyRateKg, units)} over ${insights.rateWindowDays} days`],
    ["goal", goalLine(insights, units)],
    ["expenditure", expenditureLine(insights.expenditure)],
    ["suggested", suggestionLine(insights.suggestedTargets, units)],
    ["food days", `${counted} counted of the last 90 (a day without food logged is unknown, not zero)`],
  ]);
};

export const insightsCommand = (program: Command): void => {
  program
    .command("insights")
    .description("trend weight, weekly rate, goal date, expenditure and suggested targets")
    .option("--date <day>", "as of another day, YYYY-MM-DD (default today in your profile's time zone)", day)
    .option("--adopt", "make the suggested daily kcal and protein your targets")
    .action(async (options: { date?: string; adopt?: boolean }, command: Command) => {
      const context = contextOf(command);
      const connection = await context.connection();
      if (options.adopt) {
        const targets = await call(connection, operations.adoptSuggestedTargets);
        if (context.json) return printJson(targets);
        return printLine(`Targets now ${targets.dailyKcalTarget} kcal and ${targets.proteinTargetG} g protein a day.`);
      }
      const insights = await call(connection, operations.getInsights, { query: options.date ? { date: options.date } : {} });
      if (context.json) return printJson(insights);
      printInsights(insights, shownIn(await context.units()));
    });
};
