import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { basename, extname } from "node:path";
import { operations, WorkoutImported, WorkoutImportQuery, WorkoutSource } from "@fit/contracts";
import { SingleBar } from "cli-progress";
import type { Command } from "commander";
import { oneOf } from "../args.ts";
import { send } from "../client.ts";
import type { Connection } from "../config.ts";
import { contextOf } from "../context.ts";
import { CliError, exitCodes, refused, type ExitCode } from "../exit.ts";
import { printJson, printTable } from "../output.ts";
import { importExport, importSubcommands, type ExportOptions } from "./imports.ts";
import { workoutLine } from "./workouts.ts";

/** `manual` is what a person describes, never an import. */
const importSource = oneOf(WorkoutSource.options.filter((source) => source !== "manual"));

/** The media type each activity file is sent as; the server reads the format from the content itself. */
const activityTypes: Record<string, string> = {
  ".gpx": "application/gpx+xml",
  ".tcx": "application/vnd.garmin.tcx+xml",
  ".fit": "application/vnd.ant.fit",
};

interface Job {
  file: string;
  contentType: string;
  bytes: Uint8Array;
}

interface Outcome {
  file: string;
  ok: boolean;
  result: string;
  exitCode: ExitCode;
  detail: unknown;
}

/** Every file is read and checked before the first request, so a typo in the list sends nothing. */
const prepare = async (files: string[]): Promise<Job[]> =>
  Promise.all(
    files.map(async (file): Promise<Job> => {
      const contentType = activityTypes[extname(file).toLowerCase()]!;
      let bytes: Buffer;
      try {
        bytes = await readFile(file);
      } catch (error) {
        throw new CliError(`${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, exitCodes.usage);
      }
      return { file, contentType, bytes };
    }),
  );

/** A refused file is reported and the rest go on; a refused key or a server that is down ends the import. */
const failed = (file: string, error: unknown, done: string): Outcome => {
  if (!(error instanceof CliError) || error.code === exitCodes.auth || error.code === exitCodes.unavailable) throw error;
  return { file, ok: false, result: "failed", exitCode: error.code, detail: `${done}${error.message}` };
};

const importWorkout = async (connection: Connection, job: Job, source: string, tick: () => void) => {
  try {
    const response = await send(connection, "POST", `${operations.importWorkout.path}?source=${source}`, job, randomUUID());
    const imported = WorkoutImported.parse(await response.json());
    const result = imported.created ? "created" : "updated";
    return { file: job.file, ok: true, result, exitCode: exitCodes.ok, detail: imported.workout } satisfies Outcome;
  } catch (error) {
    return failed(job.file, error, "");
  } finally {
    tick();
  }
};

const describe = (outcome: Outcome): string => {
  if (!outcome.ok) return String(outcome.detail);
  const parsed = WorkoutImported.shape.workout.safeParse(outcome.detail);
  return parsed.success ? workoutLine(parsed.data) : "";
};

const isActivityFile = (file: string) => extname(file).toLowerCase() in activityTypes;

/** Activity files, each a workout of its own through `POST /api/workouts/import`, all checked before the first is sent. */
const importActivities = async (files: string[], options: { source: string; progress: boolean }, command: Command) => {
  const context = contextOf(command);
  const query = WorkoutImportQuery.safeParse({ source: options.source });
  if (!query.success) throw refused(query.error);
  const jobs = await prepare(files);
  const connection = await context.connection();
  // On stderr, so `--json` output stays clean; without a terminal (CI, a log) it prints a line a second instead.
  const bar = options.progress && jobs.length > 1
    ? new SingleBar({ stream: process.stderr, noTTYOutput: true, notTTYSchedule: 1000, format: "importing [{bar}] {value}/{total} {file}" })
    : undefined;
  bar?.start(jobs.length, 0, { file: "" });
  const outcomes: Outcome[] = [];
  try {
    for (const job of jobs) outcomes.push(await importWorkout(connection, job, query.data.source, () => bar?.increment({ file: basename(job.file) })));
  } finally {
    bar?.stop();
  }
  if (context.json) printJson(outcomes.map(({ file, ok, result, detail }) => ({ file, ok, result, detail })));
  else printTable(["file", "result", ""], outcomes.map((o) => [o.file, o.result, describe(o)]));
  const failure = outcomes.find((o) => !o.ok);
  if (failure) process.exitCode = failure.exitCode;
};

type ImportOptions = ExportOptions & { source: string };

export const importCommand = (program: Command): void => {
  const command = program
    .command("import")
    .description("import a whole export or a CSV (weigh-ins) as a background import followed to its end, or activity files " +
      "(.gpx, .tcx, .fit) as workouts; `fit import list`, `show <id>` and `undo <id>` manage the imports")
    .argument("<files...>", "one export or CSV file, or any number of activity files")
    .option("--tz <zone>", "the IANA time zone of times the file writes without one (default: the profile's)")
    .option("--unit <unit>", "kg or lb: the unit of weights whose header names none (default: the profile's)", oneOf(["kg", "lb"] as const))
    .option("--no-wait", "print the import's id once uploaded instead of following it")
    .option("--source <source>", "where activity files come from: watch device, phone health or activity app", importSource, "watch_device")
    .option("--no-progress", "no progress bar")
    .action(async (files: string[], options: ImportOptions, command: Command) => {
      if (files.every(isActivityFile)) return importActivities(files, options, command);
      if (files.length > 1) {
        throw new CliError("an export or CSV is imported on its own: give it alone (activity files .gpx, .tcx and .fit may go together)", exitCodes.usage);
      }
      return importExport(files[0]!, options, command);
    });
  importSubcommands(command);
};
