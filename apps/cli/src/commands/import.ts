import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { basename, extname } from "node:path";
import { operations, WorkoutImported, WorkoutImportQuery, WorkoutSource } from "@fit/contracts";
import { SingleBar } from "cli-progress";
import type { Command } from "commander";
import { oneOf } from "../args.ts";
import { call, send } from "../client.ts";
import type { Connection } from "../config.ts";
import { contextOf } from "../context.ts";
import { CliError, exitCodes, refused, type ExitCode } from "../exit.ts";
import { printJson, printTable } from "../output.ts";
import { parseWeighIns, type WeighIn } from "../weigh-in-csv.ts";
import { workoutLine } from "./workouts.ts";

/** `manual` is what a person describes, never an import. */
const importSource = oneOf(WorkoutSource.options.filter((source) => source !== "manual"));

/** The media type each activity file is sent as; the server reads the format from the content itself. */
const activityTypes: Record<string, string> = {
  ".gpx": "application/gpx+xml",
  ".tcx": "application/vnd.garmin.tcx+xml",
  ".fit": "application/vnd.ant.fit",
};

type Job =
  | { file: string; kind: "workout"; contentType: string; bytes: Uint8Array }
  | { file: string; kind: "weigh-ins"; rows: WeighIn[] };

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
      const extension = extname(file).toLowerCase();
      const contentType = activityTypes[extension];
      if (extension !== ".csv" && !contentType) {
        throw new CliError(`${file}: not a .gpx, .tcx, .fit or .csv file`, exitCodes.usage);
      }
      let bytes: Buffer;
      try {
        bytes = await readFile(file);
      } catch (error) {
        throw new CliError(`${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, exitCodes.usage);
      }
      return contentType
        ? { file, kind: "workout", contentType, bytes }
        : { file, kind: "weigh-ins", rows: parseWeighIns(file, bytes.toString("utf8")) };
    }),
  );

/** A refused file is reported and the rest go on; a refused key or a server that is down ends the import. */
const failed = (file: string, error: unknown, done: string): Outcome => {
  if (!(error instanceof CliError) || error.code === exitCodes.auth || error.code === exitCodes.unavailable) throw error;
  return { file, ok: false, result: "failed", exitCode: error.code, detail: `${done}${error.message}` };
};

const importWorkout = async (connection: Connection, job: Extract<Job, { kind: "workout" }>, source: string, tick: () => void) => {
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

const importWeighIns = async (connection: Connection, job: Extract<Job, { kind: "weigh-ins" }>, tick: () => void) => {
  const ids: string[] = [];
  for (const [index, row] of job.rows.entries()) {
    try {
      ids.push((await call(connection, operations.logWeight, { body: row })).id);
    } catch (error) {
      return failed(job.file, error, `${ids.length} of ${job.rows.length} logged; line ${index + 2}: `);
    } finally {
      tick();
    }
  }
  return { file: job.file, ok: true, result: `${ids.length} weigh-ins`, exitCode: exitCodes.ok, detail: ids } satisfies Outcome;
};

const describe = (outcome: Outcome): string => {
  if (!outcome.ok) return String(outcome.detail);
  const parsed = WorkoutImported.shape.workout.safeParse(outcome.detail);
  return parsed.success ? workoutLine(parsed.data) : "";
};

export const importCommand = (program: Command): void => {
  program
    .command("import")
    .description("import activity files (.gpx, .tcx, .fit) as workouts, and .csv files of weigh-ins")
    .argument("<files...>", "the files")
    .option("--source <source>", "where the activity files come from: watch device, phone health or activity app", importSource, "watch_device")
    .option("--no-progress", "no progress bar")
    .action(async (files: string[], options: { source: string; progress: boolean }, command: Command) => {
      const context = contextOf(command);
      const query = WorkoutImportQuery.safeParse({ source: options.source });
      if (!query.success) throw refused(query.error);
      const jobs = await prepare(files);
      const connection = await context.connection();
      const units = jobs.reduce((sum, job) => sum + (job.kind === "workout" ? 1 : job.rows.length), 0);
      // On stderr, so `--json` output stays clean; without a terminal (CI, a log) it prints a line a second instead.
      const bar = options.progress && units > 1
        ? new SingleBar({ stream: process.stderr, noTTYOutput: true, notTTYSchedule: 1000, format: "importing [{bar}] {value}/{total} {file}" })
        : undefined;
      bar?.start(units, 0, { file: "" });
      const outcomes: Outcome[] = [];
      try {
        for (const job of jobs) {
          const tick = () => bar?.increment({ file: basename(job.file) });
          outcomes.push(job.kind === "workout"
            ? await importWorkout(connection, job, query.data.source, tick)
            : await importWeighIns(connection, job, tick));
        }
      } finally {
        bar?.stop();
      }
      if (context.json) printJson(outcomes.map(({ file, ok, result, detail }) => ({ file, ok, result, detail })));
      else printTable(["file", "result", ""], outcomes.map((o) => [o.file, o.result, describe(o)]));
      const failure = outcomes.find((o) => !o.ok);
      if (failure) process.exitCode = failure.exitCode;
    });
};
