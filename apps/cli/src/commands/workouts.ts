import { operations, type Workout } from "@fit/contracts";
import type { Command } from "commander";
import { day, number } from "../args.ts";
import { call } from "../client.ts";
import { contextOf } from "../context.ts";
import { duration, km, localDay, localTime, orDash, printJson, printLine, printTable } from "../output.ts";

/** "run: 5.00 km in 25:00, 350 kcal (estimated 300–400)": one line about a logged workout. */
export const workoutLine = (workout: Workout): string => {
  const distance = workout.distanceM === null ? "" : ` ${km(workout.distanceM)}`;
  const estimate = workout.energyEstimate ? ` (estimated ${workout.energyEstimate.low}–${workout.energyEstimate.high})` : "";
  const energy = workout.energyKcal === null ? "" : `, ${workout.energyKcal} kcal${estimate}`;
  return `${workout.activityType}:${distance} in ${duration(workout.durationS)}${energy}`;
};

export const workoutsCommands = (program: Command): void => {
  const workouts = program.command("workouts").description("workouts");

  workouts
    .command("describe")
    .description("log a workout from words, e.g. \"ran 5k in 25 min\"")
    .argument("<text>", "what you did")
    .option("--date <day>", "the day, YYYY-MM-DD (default your today)", day)
    .action(async (text: string, options: { date?: string }, command: Command) => {
      const context = contextOf(command);
      const body = { text, date: options.date ?? localDay(), tz: new Date().getTimezoneOffset() };
      const workout = await call(await context.connection(), operations.describeWorkout, { body });
      if (context.json) return printJson(workout);
      printLine(`Logged ${workoutLine(workout)} — "${workout.summary}" (id ${workout.id})`);
    });

  workouts
    .command("list")
    .description("workouts, newest first")
    .option("--limit <n>", "how many (1 to 200)", number, 20)
    .action(async (options: { limit: number }, command: Command) => {
      const context = contextOf(command);
      const page = await call(await context.connection(), operations.listWorkouts, { query: { limit: options.limit } });
      if (context.json) return printJson(page);
      if (page.items.length === 0) return printLine("No workouts.");
      printTable(
        ["started", "activity", "summary", "duration", "distance", "kcal", "source"],
        page.items.map((w) => [
          localTime(w.startedAt), w.activityType, w.summary, duration(w.durationS),
          w.distanceM === null ? "–" : km(w.distanceM), orDash(w.energyKcal), w.source,
        ]),
      );
    });
};
