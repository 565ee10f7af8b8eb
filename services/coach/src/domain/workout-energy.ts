// Energy estimate of a parsed workout from MET tables (see workout-met.ts for the Compendium source).
// kcal = MET × body weight (kg) × hours, MET taken as gross, so the estimate includes resting expenditure.
import type { ParsedWorkout } from "./workout-parser.ts";
import { ACTIVITY_METS, SPEED_BANDS } from "./workout-met.ts";

export interface EnergyEstimate {
  kcal: number;
  low: number;
  high: number;
  /** Which table row: "table:met:run-10kmh", "table:met:yoga". */
  source: string;
}

type EnergyInput = Pick<ParsedWorkout, "activityType" | "durationS" | "distanceM" | "exercises" | "avgHr">;

/** 2.5 min per set, rest included; a named exercise without sets counts as 3. */
const SECONDS_PER_SET = 150;
const DEFAULT_SETS = 3;
const SINGLE_MET_SPREAD = 0.2;
/** A stated average heart rate says the effort was real, not guessed: the range closes to ±12 %. */
const HR_SPREAD = 0.12;

/** Stated duration, or for strength training the time its sets take; null when neither can be known. */
export const knownDurationS = (w: Pick<ParsedWorkout, "activityType" | "durationS" | "exercises">): number | null => {
  if (w.durationS !== null) return w.durationS > 0 ? w.durationS : null;
  if (w.activityType !== "strength_training" || w.exercises.length === 0) return null;
  return w.exercises.reduce((sum, e) => sum + (e.sets ?? DEFAULT_SETS), 0) * SECONDS_PER_SET;
};

const metOf = (w: EnergyInput): { met: number; low: number; high: number; source: string } => {
  const source = `table:met:${w.activityType}`;
  const bands = SPEED_BANDS[w.activityType];
  if (bands && w.durationS && w.distanceM) {
    const kmh = w.distanceM / 1000 / (w.durationS / 3600);
    const i = bands.findIndex((band) => kmh < band.belowKmh);
    const band = bands[i];
    if (band) {
      const low = bands[i - 1]?.met ?? band.met * (1 - SINGLE_MET_SPREAD);
      const high = bands[i + 1]?.met ?? band.met * (1 + SINGLE_MET_SPREAD);
      return { met: band.met, low, high, source: `${source}-${band.label}` };
    }
  }
  const { met, low, high } = ACTIVITY_METS[w.activityType];
  return { met, low: low ?? met * (1 - SINGLE_MET_SPREAD), high: high ?? met * (1 + SINGLE_MET_SPREAD), source };
};

/** Null without a duration or a usable body weight. Integers, low <= kcal <= high. */
export const estimateWorkoutEnergy = (w: EnergyInput, weightKg: number): EnergyEstimate | null => {
  const seconds = knownDurationS(w);
  if (seconds === null || !Number.isFinite(seconds) || !(weightKg > 0) || !Number.isFinite(weightKg)) return null;
  const { met, low, high, source } = metOf(w);
  const kgHours = (weightKg * seconds) / 3600;
  const kcal = met * kgHours;
  const narrow = w.avgHr !== null;
  return {
    kcal: Math.round(kcal),
    low: Math.round(narrow ? Math.max(low * kgHours, kcal * (1 - HR_SPREAD)) : low * kgHours),
    high: Math.round(narrow ? Math.min(high * kgHours, kcal * (1 + HR_SPREAD)) : high * kgHours),
    source,
  };
};
