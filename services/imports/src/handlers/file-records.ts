// Every kind of file an import reads, as records: each a row of a kind, a refusal, or skipped, with the checkpoint
// after it. The worker (worker.ts) takes them a step at a time.
import type { ImportRowKind } from "@fit/contracts";
import type { ImportedActivity } from "@fit/activity-files";
import { APPLE_ROOT, appleRowOf } from "../domain/apple-health.ts";
import { workoutRowOf, type AppleWorkout } from "../domain/apple-workout.ts";
import { MAX_RECORDING_BYTES, readRecording, recordingKey, workoutRowsOf } from "../domain/activity-workouts.ts";
import { openEntries } from "../domain/archive.ts";
import { csvRecords, UnreadableFile } from "../domain/csv.ts";
import type { GarminFormat } from "../domain/file-kind.ts";
import { foodItemOf } from "../domain/food-diary-csv.ts";
import { garminWeighIns, isGarminBiometrics, MAX_BIOMETRICS_BYTES } from "../domain/garmin-weight.ts";
import { rowIdOf } from "../domain/row-id.ts";
import { weighInOf } from "../domain/weigh-in-csv.ts";
import { recogniseStravaActivities, stravaActivityOf, type StravaActivity } from "../domain/strava-activities.ts";
import { rootChildren } from "../domain/xml-elements.ts";
import type { Job, Store } from "../store/store.ts";

export type Row = { externalId: string; [field: string]: unknown };
/** What one record of the file is: a row of some kind, a refusal, or nothing this import reads (heart rate, steps). */
type Outcome = { kind: ImportRowKind; rows: Row[] } | { refused: string } | "skipped";
/** Where export.zip keeps the routes its workouts name. */
const ROUTES = "workout-routes/";
/** Reads one of the archive's recordings whole (see openEntries). */
type ArchiveReader = (path: string, maxBytes: number) => Promise<Buffer | { refused: string }>;
export interface FileRecord {
  line: number;
  next: { offset: number; line: number };
  outcome: Outcome;
  /** Whether reading it parsed a recording (a step reads at most RECORDINGS_PER_STEP of those: worker.ts). */
  recording?: true;
}

/** The folder of the archive the job's entry is in (`apple_health_export/`), or "" for a file sent alone. */
const folderOf = (job: Job) => ("entry" in job.format ? job.format.entry?.name.replace(/[^/]*$/, "") : undefined) ?? "";

/**
 * The job's archive, to read files under `under` of its entry's folder (recordings, routes) by their path from that
 * folder; its directory is read once a step first needs one.
 */
const filesOf = (store: Store, job: Job, under: string) => {
  const folder = folderOf(job);
  let reader: ReturnType<typeof openEntries> | undefined;
  return async (path: string, maxBytes: number) => {
    reader ??= openEntries(store.rangeOf(job.id), job.bytes, (name) => name.startsWith(folder + under));
    return (await reader).read(folder + path, maxBytes);
  };
};

/**
 * An Apple workout with its route when export.zip holds the route file it names; a route that cannot be read
 * leaves the workout as Health recorded it.
 */
const workoutOutcome = async (job: Job, workout: AppleWorkout, routes: ArchiveReader | null): Promise<Outcome> => {
  let route: ImportedActivity | null = null;
  if (routes && workout.routeFile?.startsWith(ROUTES)) {
    const bytes = await routes(workout.routeFile, MAX_RECORDING_BYTES);
    const read = Buffer.isBuffer(bytes) ? readRecording(bytes, false) : bytes;
    route = "activities" in read ? read.activities[0] ?? null : null;
  }
  const outcome = workoutRowOf(workout, (key) => rowIdOf(job.id, key), route);
  return "refused" in outcome ? outcome : { kind: "workout", rows: outcome.rows };
};

/** An activity of Strava's list as its workouts: its recording read from the archive, when it has one. */
const stravaOutcome = async (job: Job, activity: StravaActivity, recordings: ArchiveReader): Promise<Outcome> => {
  const { file, externalId, ...summary } = activity;
  let recorded: ImportedActivity[] = [];
  if (file) {
    const bytes = await recordings(file.path, MAX_RECORDING_BYTES);
    if (!Buffer.isBuffer(bytes)) return bytes;
    const read = readRecording(bytes, file.gzipped);
    if ("refused" in read) return { refused: `${file.path.slice(0, 200)}: ${read.refused}` };
    recorded = read.activities;
  }
  const outcome = workoutRowsOf({ recorded, summary, source: "activity_app", externalId, idOf: (key) => rowIdOf(job.id, key) });
  return "refused" in outcome ? outcome : { kind: "workout", rows: outcome.rows };
};

/**
 * Strava's activities.csv from the checkpoint on, its header read again each step, each row with its recording
 * inflated from the archive (the directory is read once a step needs a recording).
 */
async function* stravaRecords(store: Store, job: Job): AsyncGenerator<FileRecord> {
  let head: Buffer | undefined;
  for await (const chunk of store.fileFrom(job.id, 0, true)) {
    head = chunk;
    break;
  }
  const header = head && recogniseStravaActivities(head);
  if (!header) throw new UnreadableFile("activities.csv does not start with Strava's header (Activity ID, Activity Date, Activity Type)");
  const from = job.offset === 0 ? header : job;
  const recordings = filesOf(store, job, "activities/");
  for await (const record of csvRecords(store.fileFrom(job.id, from.offset, true), from.offset, from.line)) {
    const read = stravaActivityOf(record, header.format);
    yield { line: record.line, next: record.next, outcome: "refused" in read ? read : await stravaOutcome(job, read.activity, recordings), recording: true };
  }
}

/** The recordings of a Garmin export's uploaded files; anything else in them (a folder, a text file) is not read. */
const GARMIN_RECORDING = /\.(fit|gpx|tcx)$/i;

/**
 * Garmin Connect's export as numbered records (its `line`): the weigh-ins of each userBioMetrics file, then each
 * recording of Part1 of the uploaded files, then of Part2, …; this yields those of the part the job is at (inflated
 * in the step before), the weigh-ins with Part1's. A step starts again at its checkpoint's record: the weigh-ins
 * before it are parsed again (a file of a few MiB), the part's recordings before it only named. The offset is the
 * one reached in the inflated part.
 */
async function* garminRecords(store: Store, job: Job, { parts }: GarminFormat): AsyncGenerator<FileRecord> {
  const entry = parts[job.part];
  let line = job.part === 0 ? 0 : job.partLine - 1;
  let offset = 0;
  const from = job.line;
  const record = (outcome: () => Outcome | Promise<Outcome>, recording?: true) => async (): Promise<FileRecord | undefined> => {
    line++;
    if (line < from) return undefined;
    return { line, next: { offset, line: line + 1 }, outcome: await outcome(), ...(recording ? { recording } : {}) };
  };
  // The weigh-ins come before Part1's recordings; a later part's records start after those.
  if (job.part === 0) {
    const outer = await openEntries(store.rangeOf(job.id), job.bytes, isGarminBiometrics);
    for (const { name } of outer.names) {
      const bytes = await outer.read(name, MAX_BIOMETRICS_BYTES);
      let read: ReturnType<typeof garminWeighIns> | { refused: string };
      try {
        read = Buffer.isBuffer(bytes) ? garminWeighIns(bytes) : bytes;
      } catch (error) {
        if (!(error instanceof UnreadableFile)) throw error;
        read = { refused: `${name.slice(0, 200)}: ${error.message}` };
      }
      for (const weighIn of Array.isArray(read) ? read : [read]) {
        const next = await record(() => "weighIn" in weighIn ? { kind: "weigh-in", rows: [weighIn.weighIn] }
          : { refused: "entry" in weighIn ? `${name.slice(0, 200)}, entry ${weighIn.entry}: ${weighIn.refused}` : weighIn.refused })();
        if (next) yield next;
      }
    }
  }
  if (entry) {
    const uploads = await openEntries(store.rangeOf(job.id, true), entry.bytes, (name) => GARMIN_RECORDING.test(name));
    for (const { name, end } of uploads.names) {
      offset = end;
      const next = await record(async () => {
        const bytes = await uploads.read(name, MAX_RECORDING_BYTES);
        if (!Buffer.isBuffer(bytes)) return bytes;
        const read = readRecording(bytes, false);
        if ("refused" in read) return { refused: `${name.slice(0, 200)}: ${read.refused}` };
        // Keyed by its content, as the same file uploaded alone is (docs/decisions/0077-workout-imports-over-the-bus.md).
        const outcome = workoutRowsOf({ recorded: read.activities, summary: null, source: "watch_device", externalId: recordingKey(bytes), idOf: (key) => rowIdOf(job.id, key) });
        return "refused" in outcome ? { refused: `${name.slice(0, 200)}: ${outcome.refused}` } : { kind: "workout", rows: outcome.rows };
      }, true)();
      if (next) yield next;
    }
  }
}

/** The records of the job's file from its checkpoint on, each with what it becomes. */
export async function* recordsOf(store: Store, job: Job): AsyncGenerator<FileRecord> {
  if (job.kind === "activities") {
    yield* job.format.layout === "garmin" ? garminRecords(store, job, job.format) : stravaRecords(store, job);
    return;
  }
  const file = store.fileFrom(job.id, job.offset, job.inflated);
  if (job.kind === "health-export") {
    const routes = job.format.entry ? filesOf(store, job, ROUTES) : null;
    for await (const element of rootChildren(file, job.offset, job.line, APPLE_ROOT)) {
      const row = appleRowOf(element);
      const outcome: Outcome = row.kind === "skipped" ? "skipped"
        : row.kind === "refused" ? { refused: row.reason }
        : row.kind === "weigh-in" ? { kind: row.kind, rows: [{ externalId: row.externalId, ts: row.ts, weightKg: row.weightKg, bodyFatPct: null }] }
        : row.kind === "workout" ? await workoutOutcome(job, row.workout, routes)
        : { kind: row.kind, rows: [row] };
      yield { line: element.line, next: element.next, outcome };
    }
    return;
  }
  for await (const record of csvRecords(file, job.offset, job.line)) {
    let outcome: Outcome;
    if (job.kind === "weigh-ins") {
      const read = weighInOf(record, job.format, job.options);
      outcome = "refused" in read ? read : { kind: "weigh-in", rows: [read.weighIn] };
    } else {
      const read = foodItemOf(record, job.format);
      outcome = "refused" in read ? read : { kind: "food-item", rows: [read.item] };
    }
    yield { line: record.line, next: record.next, outcome };
  }
}
