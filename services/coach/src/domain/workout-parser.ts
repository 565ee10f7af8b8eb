// Rule-based workout parser: what the coach service uses when no language model is configured.
// "ran 5k in 27 min this morning, avg hr 152" → a normalized workout. Extractors run in a fixed order
// over one masked copy of the text, each blanking what it read: paces first (so "8 min/mi" is not a
// duration), clock times (so "at 6:30" is not one either), heart rate and the other metrics, strength
// sets (so "plank 3 x 60s" stays with the plank), then durations and distances. A bare "1:30" is read last,
// as m:ss or h:mm, once the activity and distance say which is plausible.
import type { z } from "zod";
import type { ActivityType, Exercise } from "@fit/contracts";
import { detectActivity } from "./workout-activity.ts";
import { takeExercises } from "./workout-exercises.ts";
import { takeMetrics } from "./workout-metrics.ts";
import { readClock } from "./workout-plausibility.ts";
import { summarize } from "./workout-summary.ts";
import { MaskedText, formatNumber, normalizeWorkoutText } from "./workout-text.ts";
import { tenth } from "./numbers.ts";
import { takeDistance, takeDuration, takePace } from "./workout-units.ts";
import { type WorkoutWhen, takeWhen } from "./workout-when.ts";

export interface ParsedWorkout {
  activityType: z.infer<typeof ActivityType>;
  summary: string;
  /** Stated, or derived from distance and pace; null when neither is known. A stated 0 stays 0, as does distanceM's. */
  durationS: number | null;
  distanceM: number | null;
  elevationGainM: number | null;
  avgHr: number | null;
  maxHr: number | null;
  avgPowerW: number | null;
  avgCadence: number | null;
  /** Only what the text states ("burned 400 kcal"); estimates are estimateWorkoutEnergy's job. */
  energyKcal: number | null;
  exercises: z.infer<typeof Exercise>[];
  when: WorkoutWhen;
}

/** `weekday` is the user's local weekday today, 0 = Sunday; weekday names in the text count back from it. */
export const parseWorkout = (text: string, options: { weekday?: number } = {}): ParsedWorkout => {
  const normalized = normalizeWorkoutText(text);
  const t = new MaskedText(normalized);
  const secondsPerMeter = takePace(t);
  const when = takeWhen(t, options.weekday ?? 0);
  const metrics = takeMetrics(t);
  const { exercises, nameSpans } = takeExercises(t);
  const activityType = detectActivity(normalized, nameSpans);
  const stated = takeDuration(t);
  const distance = takeDistance(t, activityType === "swim");
  // The longest: a warm-up or an interval is shorter than the workout it is part of.
  const durations = [...stated.durations, ...stated.clocks.map((clock) => readClock(clock, activityType, distance?.meters ?? null))];

  let durationS = durations.length === 0 ? null : Math.round(Math.max(...durations));
  let distanceM = distance?.meters ?? null;
  let distanceLabel = distance?.label ?? null;
  if (secondsPerMeter !== null && durationS === null && distanceM !== null) durationS = Math.round(distanceM * secondsPerMeter);
  if (secondsPerMeter !== null && distanceM === null && durationS !== null) {
    distanceM = tenth(durationS / secondsPerMeter);
    distanceLabel = `${formatNumber(distanceM / 1000)} km`;
  }

  return {
    activityType,
    summary: summarize({ activityType, distanceLabel, durationS, exerciseNames: exercises.map((e) => e.exercise) }),
    durationS,
    distanceM,
    ...metrics,
    exercises,
    when,
  };
};

/**
 * The time words give, read as a described workout's (`parseWorkout`'s `when`): null when they name no day before
 * today and no time of day, so that a photo's own capture time places it instead.
 */
export const statedWhen = (text: string, weekday: number): WorkoutWhen | null => {
  const { when } = parseWorkout(text, { weekday });
  return when.dayOffset === 0 && when.minuteOfDay === null ? null : when;
};
