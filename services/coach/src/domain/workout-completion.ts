import type { ParsedWorkout as WorkoutRead } from "@fit/contracts";
import { estimateWorkoutEnergy, knownDurationS } from "./workout-energy.ts";
import type { ParsedWorkout as Read } from "./workout-parser.ts";
import { whyImpossible } from "./workout-plausibility.ts";

/** Minutes per km at an easy pace: how long a distance stated without a time most likely took. */
const typicalMinPerKm: Partial<Record<Read["activityType"], number>> = {
  run: 6, walk: 12, hike: 15, ride: 2.5, swim: 25, rowing: 5, elliptical: 6,
};

const durationFromDistance = ({ activityType, distanceM }: Read) => {
  const pace = typicalMinPerKm[activityType];
  return pace && distanceM ? (distanceM / 1000) * pace * 60 : null;
};

/**
 * Settles what the text left open: a strength session's duration from its sets, a distance's from an easy pace,
 * and the energy from the MET table when the text states none (with its range and source). `read`: a workout as
 * the parser or a model read it. Null when no duration can be known, or when the text cannot be true (see
 * whyImpossible): the caller asks the user to say how long or how far.
 */
export const completeWorkout = (read: Read, weightKg: number): WorkoutRead | null => {
  if (whyImpossible(read) !== null) return null;
  const durationS = knownDurationS(read) ?? durationFromDistance(read);
  if (durationS === null) return null;
  const estimate = read.energyKcal === null ? estimateWorkoutEnergy({ ...read, durationS }, weightKg) : null;
  return {
    activityType: read.activityType,
    summary: read.summary,
    durationS: Math.round(durationS),
    distanceM: read.distanceM,
    elevationGainM: read.elevationGainM,
    energyKcal: read.energyKcal ?? estimate?.kcal ?? null,
    energyEstimate: estimate && { low: estimate.low, high: estimate.high, source: estimate.source },
    avgHr: read.avgHr,
    maxHr: read.maxHr,
    avgPowerW: read.avgPowerW,
    avgCadence: read.avgCadence,
    exercises: read.exercises,
    when: read.when,
  };
};
