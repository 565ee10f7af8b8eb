import type { ActivityType, ImportedWorkoutRow, ParsedWorkout, Workout, WorkoutCreate, WorkoutEnergyEstimate, WorkoutImportRow, WorkoutPatch } from "@fit/contracts";
import type { z } from "zod";
import type { ImportedWorkout, NewWorkout, WorkoutChanges } from "../store/store.ts";
import type { ImportedActivity } from "@fit/activity-files";

type Identity = { id: string; accountId: string };

const noMetrics = {
  movingDurationS: null, distanceM: null, elevationGainM: null, energyKcal: null, avgHr: null, maxHr: null, avgPowerW: null, avgCadence: null,
};
const noEstimate = { energyLow: null, energyHigh: null, energySource: null };

const activityNames: Record<ActivityType, string> = {
  run: "Run", ride: "Ride", swim: "Swim", walk: "Walk", hike: "Hike", strength_training: "Strength training", yoga: "Yoga",
  rowing: "Row", elliptical: "Elliptical", crossfit: "CrossFit", other: "Workout",
};

/** "Run 10.2 km", "Yoga 45 min": what a list shows when the source gave no title. */
export const defaultSummary = (activityType: ActivityType, distanceM: number | null, durationS: number): string =>
  distanceM !== null && distanceM > 0
    ? `${activityNames[activityType]} ${(distanceM / 1000).toFixed(distanceM < 10_000 ? 2 : 1)} km`
    : `${activityNames[activityType]} ${Math.max(1, Math.round(durationS / 60))} min`;

/** The fields a workout is logged with, as the user checks them: a photo's preview shows these, POST /api/workouts takes them back. */
export type WorkoutDraft = Omit<Workout, "id" | "createdAt" | "eventId" | "source">;

/** What the coach parsed (or a photo showed), in words and placed in time, before it is stored. */
export const workoutDraft = (parsed: ParsedWorkout, { text, startedAt }: { text: string; startedAt: number }): WorkoutDraft => ({
  activityType: parsed.activityType,
  summary: parsed.summary,
  description: text,
  startedAt,
  durationS: parsed.durationS,
  ...noMetrics,
  distanceM: parsed.distanceM,
  elevationGainM: parsed.elevationGainM,
  avgHr: parsed.avgHr,
  maxHr: parsed.maxHr,
  avgPowerW: parsed.avgPowerW,
  avgCadence: parsed.avgCadence,
  energyKcal: parsed.energyKcal,
  energyEstimate: parsed.energyEstimate,
  exercises: parsed.exercises,
});

/** The metrics a row states, null where it states none. */
const metricsOf = (row: Partial<Record<keyof typeof noMetrics, number | null>>) =>
  Object.fromEntries(Object.keys(noMetrics).map((key) => [key, row[key as keyof typeof noMetrics] ?? null])) as Record<keyof typeof noMetrics, number | null>;

/** A workout the user logged by its fields (source `manual`): their numbers as sent, nothing estimated here. */
export const createdWorkout = ({ id, accountId }: Identity, workout: z.output<typeof WorkoutCreate>): NewWorkout => ({
  id,
  accountId,
  source: "manual",
  externalId: null,
  activityType: workout.activityType,
  summary: workout.summary ?? defaultSummary(workout.activityType, workout.distanceM ?? null, workout.durationS),
  description: workout.description,
  startedAt: new Date(workout.startedAt),
  durationS: workout.durationS,
  ...metricsOf(workout),
  // Only an estimated energy carries a range; a stated one is the user's number.
  ...(workout.energyEstimate
    ? { energyLow: workout.energyEstimate.low, energyHigh: workout.energyEstimate.high, energySource: workout.energyEstimate.source }
    : noEstimate),
  exercises: workout.exercises ?? [],
});

export const describedWorkout = (identity: Identity, parsed: ParsedWorkout, placed: { text: string; startedAt: number }): NewWorkout =>
  createdWorkout(identity, workoutDraft(parsed, placed));

export const importedRow = ({ id, accountId }: Identity, row: z.output<typeof WorkoutImportRow>): ImportedWorkout => {
  const summary = row.summary ?? defaultSummary(row.activityType, row.distanceM ?? null, row.durationS);
  return {
    id,
    accountId,
    source: row.source,
    externalId: row.externalId,
    activityType: row.activityType,
    summary,
    description: row.description ?? summary,
    startedAt: new Date(row.startedAt),
    durationS: row.durationS,
    ...metricsOf(row),
    ...noEstimate,
    exercises: row.exercises ?? [],
    eventId: null,
    route: null,
  };
};

/**
 * A file's activity as a workout. `estimate` is the coach's for a file that states no energy; `eventId` links the
 * legs of a multisport file.
 */
export const importedFile = (
  { id, accountId }: Identity,
  file: Omit<ImportedActivity, "format">,
  { source, externalId, eventId, estimate }: { source: NewWorkout["source"]; externalId: string; eventId: string | null; estimate: WorkoutEnergyEstimate | null },
): ImportedWorkout => {
  const summary = file.name ?? defaultSummary(file.activityType, file.distanceM, file.durationS);
  return {
    id,
    accountId,
    source,
    externalId,
    activityType: file.activityType,
    summary,
    description: summary,
    startedAt: new Date(file.startedAt),
    durationS: Math.max(1, file.durationS),
    movingDurationS: file.movingDurationS,
    distanceM: file.distanceM,
    elevationGainM: file.elevationGainM,
    avgHr: file.avgHr,
    maxHr: file.maxHr,
    avgPowerW: file.avgPowerW,
    avgCadence: file.avgCadence,
    // The file's own figure, or else the estimate with its range; a stated energy never meets an estimate here.
    ...(file.energyKcal === null && estimate
      ? { energyKcal: estimate.kcal, energyLow: estimate.low, energyHigh: estimate.high, energySource: estimate.source }
      : { energyKcal: file.energyKcal, ...noEstimate }),
    exercises: [],
    eventId,
    route: file.route,
  };
};

/**
 * What an import's external ids start with, so they never meet a file's hash or an app's own id, and an import's
 * undo removes only rows that carry it (docs/decisions/0077-workout-imports-over-the-bus.md).
 */
export const IMPORT_KEY_PREFIX = "import:";

/** An import's row (the imports service's, over the bus) as a workout: built as a file's activity is, its description kept. */
export const importedWorkout = (
  accountId: string,
  row: z.output<typeof ImportedWorkoutRow>,
  estimate: WorkoutEnergyEstimate | null,
): ImportedWorkout => {
  const { id, externalId, source, name, description, eventId, ...activity } = row;
  const workout = importedFile({ id, accountId }, { ...activity, name }, { source, externalId: `${IMPORT_KEY_PREFIX}${externalId}`, eventId, estimate });
  return description === null ? workout : { ...workout, description };
};

/** A correction by hand: a new energyKcal is the user's number, so the estimate it replaces goes. */
export const workoutChanges = (patch: z.output<typeof WorkoutPatch>): WorkoutChanges => {
  const { startedAt, exercises, ...rest } = patch;
  return {
    ...rest,
    ...(startedAt !== undefined ? { startedAt: new Date(startedAt) } : {}),
    ...(exercises !== undefined ? { exercises } : {}),
    ...(patch.energyKcal !== undefined ? noEstimate : {}),
  };
};
