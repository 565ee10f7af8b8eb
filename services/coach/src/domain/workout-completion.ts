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

/** What the user is told when their words cannot become a workout: what is wrong, and what to say instead. */
interface Refusal {
  message: string;
  hint: string;
}

/**
 * Settles what the text left open: a strength session's duration from its sets, a distance's from an easy pace,
 * and the energy from the MET table when the text states none (with its range and source). `read`: a workout as
 * the parser or a model read it. A refusal when the text cannot be true (see whyImpossible) or no duration can be
 * known: the user is asked to say how long or how far.
 */
export const completeWorkout = (read: Read, weightKg: number): { workout: WorkoutRead } | { refusal: Refusal } => {
  const impossible = whyImpossible(read);
  if (impossible !== null) {
    return { refusal: { message: `the workout cannot be right: ${impossible}`, hint: "say how long and how far it really was" } };
  }
  const durationS = knownDurationS(read) ?? durationFromDistance(read);
  if (durationS === null) {
    return {
      refusal: {
        message: "text must say what was done and for how long, how far or how many sets",
        hint: "e.g. \"30 min run\" or \"3x10 squats at 60 kg\"",
      },
    };
  }
  const estimate = read.energyKcal === null ? estimateWorkoutEnergy({ ...read, durationS }, weightKg) : null;
  const workout: WorkoutRead = {
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
  return { workout };
};
