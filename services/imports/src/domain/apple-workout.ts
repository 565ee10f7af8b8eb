// An Apple Health <Workout> as a workout of this platform, before it is sent anywhere: its type from
// HKWorkoutActivityType*, its times, and its distance, energy and heart rate from the element's own attributes
// (older exports) or its <WorkoutStatistics> children (iOS 16 on), in the units recorded.
import type { ImportedActivity } from "@fit/activity-files";
import type { ActivityType } from "@fit/contracts";
import { workoutRowsOf, type WorkoutRowsOutcome } from "./activity-workouts.ts";
import { appleInstant, type Node } from "./apple-element.ts";

export interface AppleWorkout {
  /** The same whenever the same workout is exported again: its start and type. */
  externalId: string;
  activityType: ActivityType;
  /** Apple's own name of the type (`Running`), kept where the platform's types are coarser. */
  appleType: string;
  startedAt: number;
  endedAt: number;
  durationS: number;
  distanceM: number | null;
  energyKcal: number | null;
  avgHr: number | null;
  maxHr: number | null;
  /** The route's GPX in the archive (`workout-routes/…`), if it has one. */
  routeFile: string | null;
}

const TYPES: Record<string, ActivityType> = {
  Running: "run", Cycling: "ride", HandCycling: "ride", Swimming: "swim", Walking: "walk", Hiking: "hike",
  TraditionalStrengthTraining: "strength_training", FunctionalStrengthTraining: "strength_training", Yoga: "yoga",
  Rowing: "rowing", Elliptical: "elliptical", CrossTraining: "crossfit", HighIntensityIntervalTraining: "crossfit",
  WheelchairRunPace: "run", WheelchairWalkPace: "walk",
};

const METRES_PER: Record<string, number> = { m: 1, km: 1000, mi: 1609.344, yd: 0.9144, ft: 0.3048, cm: 0.01 };
const KCAL_PER: Record<string, number> = { kcal: 1, Cal: 1, cal: 0.001, kJ: 1 / 4.184, J: 1 / 4184 };
const SECONDS_PER: Record<string, number> = { s: 1, min: 60, hr: 3600, h: 3600, ms: 0.001 };

const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;

/** A quantity in one of `units`, or null when it is missing, not a number or in another unit. */
const quantity = (value: string | undefined, unit: string | undefined, units: Record<string, number>): number | null => {
  if (value === undefined || value.trim() === "" || unit === undefined) return null;
  const number = Number(value);
  const factor = units[unit];
  return Number.isFinite(number) && number >= 0 && factor !== undefined ? number * factor : null;
};

const DISTANCE_TYPES = new Set([
  "HKQuantityTypeIdentifierDistanceWalkingRunning", "HKQuantityTypeIdentifierDistanceCycling", "HKQuantityTypeIdentifierDistanceSwimming",
  "HKQuantityTypeIdentifierDistanceWheelchair", "HKQuantityTypeIdentifierDistanceDownhillSnowSports",
]);

/** The workout an element describes, or why it cannot be one. */
export const workoutOf = (node: Node): AppleWorkout | { refused: string } => {
  const a = node.attributes;
  const startedAt = appleInstant(a.startDate);
  const endedAt = appleInstant(a.endDate);
  if (startedAt === undefined || endedAt === undefined || endedAt < startedAt) return { refused: "a workout without a start and an end" };
  const appleType = (a.workoutActivityType ?? "").replace(/^HKWorkoutActivityType/, "");
  const stats = node.children.filter((child) => child.name === "WorkoutStatistics");
  const stat = (test: (type: string) => boolean) => stats.find((s) => test(s.attributes.type ?? ""))?.attributes;

  const distanceStat = stat((type) => DISTANCE_TYPES.has(type));
  const distance = quantity(a.totalDistance, a.totalDistanceUnit, METRES_PER) ?? quantity(distanceStat?.sum, distanceStat?.unit, METRES_PER);
  const energyStat = stat((type) => type === "HKQuantityTypeIdentifierActiveEnergyBurned");
  const energy = quantity(a.totalEnergyBurned, a.totalEnergyBurnedUnit, KCAL_PER) ?? quantity(energyStat?.sum, energyStat?.unit, KCAL_PER);
  const heart = stat((type) => type === "HKQuantityTypeIdentifierHeartRate");
  const beats = (value: string | undefined) => (heart?.unit === "count/min" ? quantity(value, "count/min", { "count/min": 1 }) : null);
  const duration = quantity(a.duration, a.durationUnit ?? "min", SECONDS_PER) ?? (endedAt - startedAt) / 1000;
  const route = node.children.find((child) => child.name === "WorkoutRoute")?.children.find((child) => child.name === "FileReference");

  return {
    externalId: `apple-workout:${startedAt}:${appleType}`,
    activityType: TYPES[appleType] ?? "other",
    appleType,
    startedAt,
    endedAt,
    durationS: Math.round(duration),
    // A distance or energy of 0 is what Health writes when none was measured.
    distanceM: distance ? round(distance, 1) : null,
    energyKcal: energy ? Math.round(energy) : null,
    avgHr: beats(heart?.average) === null ? null : Math.round(beats(heart?.average)!),
    maxHr: beats(heart?.maximum) === null ? null : Math.round(beats(heart?.maximum)!),
    routeFile: route?.attributes.path?.replace(/^\//, "") ?? null,
  };
};

/**
 * The workout as a row of `workouts.workout.import`, source `phone_health`, its summary made by workouts. `route` is
 * its route file read (`workout-routes/*.gpx` of export.zip): it adds the track, and the distance, climb and moving
 * time Health did not record; the workout's own figures win (docs/decisions/0078-apple-health-and-archives.md).
 */
export const workoutRowOf = (workout: AppleWorkout, idOf: (key: string) => string, route: ImportedActivity | null = null): WorkoutRowsOutcome => {
  const own = {
    activityType: workout.activityType, startedAt: workout.startedAt, durationS: workout.durationS, distanceM: workout.distanceM,
    energyKcal: workout.energyKcal, avgHr: workout.avgHr, maxHr: workout.maxHr,
  };
  const recorded = route
    ? [{ ...route, ...own, name: null, distanceM: own.distanceM ?? route.distanceM, energyKcal: own.energyKcal ?? route.energyKcal, avgHr: own.avgHr ?? route.avgHr, maxHr: own.maxHr ?? route.maxHr }]
    : [];
  return workoutRowsOf({
    recorded,
    summary: { ...own, name: null, description: null, movingDurationS: null, elevationGainM: null },
    source: "phone_health",
    externalId: workout.externalId,
    idOf,
  });
};
