// An archive's activity as rows of `workouts.workout.import` (docs/decisions/0077-workout-imports-over-the-bus.md):
// its recording read by @fit/activity-files, and what the archive's own list says of it (Strava's activities.csv).
import { createHash } from "node:crypto";
import { gunzipSync } from "node:zlib";
import type { z } from "zod";
import { ImportedWorkoutRow, type ActivityType } from "@fit/contracts";
import { ActivityFileError, parseActivityFile, type ImportedActivity } from "@fit/activity-files";
import { reasonOf } from "./fields.ts";

type Row = z.output<typeof ImportedWorkoutRow>;
export type WorkoutRowsOutcome = { rows: Row[] } | { refused: string };

/** What one recording may be once unpacked: the single-file import's limit (docs/security.md#25-activity-file-imports). */
export const MAX_RECORDING_BYTES = 10 * 1024 * 1024;

/** What an archive's list says of an activity; null where it says nothing. */
export interface ActivitySummary {
  activityType: ActivityType;
  name: string | null;
  description: string | null;
  startedAt: number;
  durationS: number | null;
  movingDurationS: number | null;
  distanceM: number | null;
  elevationGainM: number | null;
  energyKcal: number | null;
  avgHr: number | null;
  maxHr: number | null;
}

/** A recording's key when the archive names it by nothing stable (Garmin's FIT files): its content, as a single upload's. */
export const recordingKey = (bytes: Uint8Array): string => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;

/**
 * A recording's activities (one, or one per leg of a multisport FIT file), unpacked first when gzipped (Strava's
 * `.fit.gz`). The refusal names what is wrong with the file: past the size, not gzip, or not an activity file.
 */
export const readRecording = (bytes: Buffer, gzipped: boolean): { activities: ImportedActivity[] } | { refused: string } => {
  let file: Buffer;
  try {
    file = gzipped ? gunzipSync(bytes, { maxOutputLength: MAX_RECORDING_BYTES }) : bytes;
  } catch (error) {
    return { refused: (error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE" ? "the recording is larger than 10 MiB unpacked" : "the recording is not gzip" };
  }
  if (file.length > MAX_RECORDING_BYTES) return { refused: "the recording is larger than 10 MiB" };
  try {
    return { activities: parseActivityFile(file) };
  } catch (error) {
    if (error instanceof ActivityFileError) return { refused: error.message };
    throw error;
  }
};

const noFigures = {
  movingDurationS: null, distanceM: null, elevationGainM: null, energyKcal: null, avgHr: null, maxHr: null, avgPowerW: null, avgCadence: null,
};

/** The summary's figures where the recording states none: the recording's own are measured over its track. */
const filled = (activity: ImportedActivity, summary: ActivitySummary | null) => {
  if (!summary) return activity;
  const fill = (key: "movingDurationS" | "distanceM" | "elevationGainM" | "energyKcal" | "avgHr" | "maxHr") => activity[key] ?? summary[key];
  return {
    ...activity,
    // The type the athlete set on the app wins over the device's sport, but not with a word the interface lacks.
    activityType: summary.activityType === "other" ? activity.activityType : summary.activityType,
    movingDurationS: fill("movingDurationS"), distanceM: fill("distanceM"), elevationGainM: fill("elevationGainM"),
    energyKcal: fill("energyKcal"), avgHr: fill("avgHr"), maxHr: fill("maxHr"),
  };
};

/**
 * The rows an activity makes: each leg of its recording (`<externalId>#<n>` and one event id when there are several),
 * named and typed by the summary, or the summary alone when there is no recording (an activity entered by hand).
 * `idOf` gives each key its row id (`rowIdOf` of the import), so a step done again proposes the same ids.
 */
export const workoutRowsOf = ({
  recorded,
  summary,
  source,
  externalId,
  idOf,
}: {
  recorded: readonly ImportedActivity[];
  summary: ActivitySummary | null;
  source: Row["source"];
  externalId: string;
  idOf: (key: string) => string;
}): WorkoutRowsOutcome => {
  const multisport = recorded.length > 1;
  const eventId = multisport ? idOf(`${externalId}#event`) : null;
  const candidates: unknown[] = recorded.map((activity, i) => {
    const { format: _, route, ...figures } = filled(activity, multisport ? null : summary);
    const key = multisport ? `${externalId}#${i + 1}` : externalId;
    return {
      ...figures, id: idOf(key), externalId: key, source, route, eventId,
      name: summary?.name ?? activity.name, description: summary?.description ?? null,
    };
  });
  if (recorded.length === 0) {
    if (!summary || summary.durationS === null) return { refused: "no recording and no duration" };
    candidates.push({ ...noFigures, ...summary, durationS: summary.durationS, id: idOf(externalId), externalId, source, route: null, eventId: null });
  }
  const rows: Row[] = [];
  for (const candidate of candidates) {
    const parsed = ImportedWorkoutRow.safeParse(candidate);
    if (!parsed.success) return { refused: reasonOf(parsed.error) };
    rows.push(parsed.data);
  }
  return { rows };
};
