import { ActivityType, operations, type Workout } from "@fit/contracts";
import type { Command } from "commander";
import { day, instant, number, oneOf, onlyGiven, seconds } from "../args.ts";
import { call } from "../client.ts";
import { contextOf } from "../context.ts";
import { addDeleteCommand } from "./delete-by-id.ts";
import { label } from "../labels.ts";
import { photoFile, printRead } from "../photo.ts";
import { duration, km, localDay, localTime, orDash, printJson, printLine, printMore, printRecord, printTable } from "../output.ts";

/** "run: 5.00 km in 25:00, 350 kcal (estimated 300–400)": one line about a logged workout. */
export const workoutLine = (workout: Workout): string => {
  const distance = workout.distanceM === null ? "" : ` ${km(workout.distanceM)}`;
  const estimate = workout.energyEstimate ? ` (estimated ${workout.energyEstimate.low}–${workout.energyEstimate.high})` : "";
  const energy = workout.energyKcal === null ? "" : `, ${workout.energyKcal} kcal${estimate}`;
  return `${label(workout.activityType)}:${distance} in ${duration(workout.durationS)}${energy}`;
};

const printWorkout = (workout: Workout) => {
  const estimate = workout.energyEstimate ? ` (estimated ${workout.energyEstimate.low}–${workout.energyEstimate.high})` : "";
  printRecord([
    ["id", workout.id],
    ["activity", label(workout.activityType)],
    ["summary", workout.summary],
    ["description", workout.description],
    ["started", localTime(workout.startedAt)],
    ["duration", duration(workout.durationS)],
    ["moving time", workout.movingDurationS === null ? "–" : duration(workout.movingDurationS)],
    ["distance", workout.distanceM === null ? "–" : km(workout.distanceM)],
    ["elevation gain", orDash(workout.elevationGainM, " m")],
    ["energy", workout.energyKcal === null ? "–" : `${workout.energyKcal} kcal${estimate}`],
    ["heart rate", workout.avgHr === null ? "–" : `${workout.avgHr} bpm average${workout.maxHr === null ? "" : `, ${workout.maxHr} max`}`],
    ["power", orDash(workout.avgPowerW, " W")],
    ["cadence", orDash(workout.avgCadence, " per minute")],
    ["source", label(workout.source)],
  ]);
  if (workout.exercises.length === 0) return;
  printTable(
    ["exercise", "sets", "reps", "weight lb", "duration", "distance m", "notes"],
    workout.exercises.map((e) => [
      e.exercise, orDash(e.sets), orDash(e.reps), orDash(e.weightLb), e.durationS === null ? "–" : duration(e.durationS), orDash(e.distanceM), e.notes ?? "",
    ]),
  );
};

interface ListOptions {
  limit: number;
  type?: ActivityType;
  from?: number;
  to?: number;
  cursor?: string;
}

interface EditOptions {
  type?: ActivityType;
  summary?: string;
  description?: string;
  start?: number;
  duration?: number;
  distance?: number;
  elevation?: number;
  kcal?: number;
  avgHr?: number;
  maxHr?: number;
}

const activities = `${ActivityType.options.map(label).join(", ")}`;

export const workoutsCommands = (program: Command): void => {
  const workouts = program.command("workouts").description("workouts: describe, photo, list, show, edit, delete");

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
    .command("photo")
    .description("log a workout from a photo of a treadmill or bike console, a watch or phone summary: JPEG, PNG or WebP")
    .argument("<file>", "the photo")
    .option("--text <words>", "what you add in words; kept as the description")
    .option("--date <day>", "the day, YYYY-MM-DD (default the photo's own, else your today)", day)
    .action(async (file: string, options: { text?: string; date?: string }, command: Command) => {
      const context = contextOf(command);
      const query = { text: options.text, date: options.date, tz: new Date().getTimezoneOffset() };
      const workout = await call(await context.connection(), operations.logWorkoutPhoto, { query, file: await photoFile(file) });
      if (context.json) return printJson(workout);
      printRead(workout.read);
      printLine(`Logged ${workoutLine(workout)} — "${workout.summary}" at ${localTime(workout.startedAt)} (id ${workout.id})`);
    });

  workouts
    .command("list")
    .description("workouts, newest first, with their ids")
    .option("--limit <n>", "how many (1 to 200)", number, 20)
    .option("--type <activity>", `only this activity: ${activities}`, oneOf(ActivityType.options))
    .option("--from <time>", "started at or after this time, ISO 8601", instant)
    .option("--to <time>", "started before this time, ISO 8601", instant)
    .option("--cursor <cursor>", "the next page, as the previous one printed it")
    .action(async (options: ListOptions, command: Command) => {
      const context = contextOf(command);
      const query = { limit: options.limit, activityType: options.type, from: options.from, to: options.to, cursor: options.cursor };
      const page = await call(await context.connection(), operations.listWorkouts, { query });
      if (context.json) return printJson(page);
      if (page.items.length === 0) return printLine("No workouts.");
      printTable(
        ["id", "started", "activity", "summary", "duration", "distance", "kcal", "source"],
        page.items.map((w) => [
          w.id, localTime(w.startedAt), label(w.activityType), w.summary, duration(w.durationS),
          w.distanceM === null ? "–" : km(w.distanceM), orDash(w.energyKcal), label(w.source),
        ]),
      );
      printMore(page.nextCursor);
    });

  workouts
    .command("show")
    .description("one workout in full: metrics, exercises")
    .argument("<id>", "the workout's id (as `workouts list` prints it)")
    .action(async (id: string, _options: object, command: Command) => {
      const context = contextOf(command);
      const workout = await call(await context.connection(), operations.getWorkout, { params: { id } });
      if (context.json) return printJson(workout);
      printWorkout(workout);
    });

  workouts
    .command("edit")
    .description("correct a workout: only the options given change")
    .argument("<id>", "the workout's id")
    .option("--type <activity>", `the activity: ${activities}`, oneOf(ActivityType.options))
    .option("--summary <text>", "the one-line summary")
    .option("--description <text>", "the description")
    .option("--start <time>", "when it started, ISO 8601", instant)
    .option("--duration <time>", "how long: minutes (45) or h:mm:ss (1:05:00)", seconds)
    .option("--distance <km>", "distance, km", number)
    .option("--elevation <m>", "elevation gain, metres", number)
    .option("--kcal <kcal>", "energy, kcal (replaces an estimate)", number)
    .option("--avg-hr <bpm>", "average heart rate", number)
    .option("--max-hr <bpm>", "maximum heart rate", number)
    .action(async (id: string, options: EditOptions, command: Command) => {
      const context = contextOf(command);
      const body = onlyGiven({
        activityType: options.type, summary: options.summary, description: options.description, startedAt: options.start,
        durationS: options.duration, distanceM: options.distance === undefined ? undefined : Math.round(options.distance * 1000),
        elevationGainM: options.elevation, energyKcal: options.kcal, avgHr: options.avgHr, maxHr: options.maxHr,
      });
      const workout = await call(await context.connection(), operations.editWorkout, { params: { id }, body });
      if (context.json) return printJson(workout);
      printLine(`Saved ${workoutLine(workout)} — "${workout.summary}" (id ${workout.id})`);
    });

  addDeleteCommand(workouts, "workout", operations.deleteWorkout);
};
