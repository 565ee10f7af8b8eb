// Daily energy expenditure: a Kalman filter on (true weight, expenditure) driven by logged intake, starting from a
// Mifflin–St Jeor estimate and moving to the data as counted days accumulate. Method: docs/decisions/0068.
import { dayNumber } from "./calendar.ts";
import { readingSdKg, type TrendPoint } from "./trend.ts";

/** Energy per kilogram of body weight gained or lost (Wishnofsky's ~3 500 kcal/lb, the figure the apps use). */
export const KCAL_PER_KG = 7700;

/** A day of food; `counted: false` is a day excluded or incomplete, whose intake is unknown (not zero). */
export interface IntakeDay { date: string; kcal: number; counted: boolean }
export type ActivityLevel = "sedentary" | "light" | "moderate" | "active" | "very_active";
export interface Profile { heightCm?: number; birthYear?: number; sex?: "female" | "male"; activityLevel?: ActivityLevel }
type Confidence = "formula" | "low" | "medium" | "high";
/** kcal a day, with the 90 % range [low, high] and the counted days it rests on. */
export interface Expenditure { kcal: number; low: number; high: number; confidence: Confidence; daysCounted: number; method: string }

/** Multipliers of the resting rate (the usual Harris–Benedict/Mifflin activity factors). */
const ACTIVITY_FACTORS: Record<ActivityLevel, number> = { sedentary: 1.2, light: 1.375, moderate: 1.55, active: 1.725, very_active: 1.9 };

/** Mifflin–St Jeor's constant by sex; without a sex, their mean. */
const SEX_CONSTANT = { female: -161, male: 5, unknown: -78 } as const;
/** Stand-ins for missing profile fields: adult means, a lightly active day. */
const DEFAULT_HEIGHT_CM = { female: 163, male: 177, unknown: 170 } as const;
const DEFAULT_AGE = 40;
const DEFAULT_ACTIVITY: ActivityLevel = "light";
/**
 * Relative SD of the formula against measured expenditure with the whole profile known (Mifflin–St Jeor is
 * within ±10 % of measured resting rate for most adults; the activity factor adds more), and what each missing
 * field adds in quadrature.
 */
const FORMULA_RELATIVE_SD = 0.14;
const MISSING_FIELD_RELATIVE_SD = { activityLevel: 0.1, sex: 0.05, heightCm: 0.05, birthYear: 0.03 } as const;

/** The expenditure the profile alone suggests, with its SD. */
export function formulaExpenditure(profile: Profile, kg: number, asOf: string): { kcal: number; sd: number; factor: number } {
  const sex = profile.sex ?? "unknown";
  const age = profile.birthYear === undefined ? DEFAULT_AGE : Number(asOf.slice(0, 4)) - profile.birthYear;
  const height = profile.heightCm ?? DEFAULT_HEIGHT_CM[sex];
  const factor = ACTIVITY_FACTORS[profile.activityLevel ?? DEFAULT_ACTIVITY];
  const kcal = (10 * kg + 6.25 * height - 5 * age + SEX_CONSTANT[sex]) * factor;
  const missing = (Object.keys(MISSING_FIELD_RELATIVE_SD) as (keyof typeof MISSING_FIELD_RELATIVE_SD)[]).filter((field) => profile[field] === undefined);
  const relativeSd = Math.sqrt(FORMULA_RELATIVE_SD ** 2 + missing.reduce((sum, field) => sum + MISSING_FIELD_RELATIVE_SD[field] ** 2, 0));
  return { kcal, sd: kcal * relativeSd, factor };
}

/** Days before `asOf` the estimate looks at; older data has long stopped mattering (EXPENDITURE_DRIFT_KCAL). */
export const EXPENDITURE_WINDOW_DAYS = 120;
/** SD of a day's drift of true expenditure (a lower weight burns less; seasons); steps are CHANGE_SD_KCAL. */
const EXPENDITURE_DRIFT_KCAL = 10;
/** Relative SD of a counted day's logged kcal around what was eaten (portion guesses, labels). */
const LOGGED_INTAKE_RELATIVE_SD = 0.1;
/** SD of a day's change of true weight that intake does not explain (glycogen, not water on the scale). */
const UNEXPLAINED_WEIGHT_SD_KG = 0.02;
/** The range is the estimate ± this many SDs: 90 % of a normal distribution. */
const RANGE_Z = 1.645;
/** Fewer counted days than this and the answer is still mostly the formula's. */
const MIN_COUNTED_DAYS = 7;
const CONFIDENCE_SD_KCAL = { high: 60, medium: 120 } as const;

const round10 = (kcal: number) => Math.round(kcal / 10) * 10;

/**
 * Expenditure on `asOf` from the readings carried by `trend` (its `kg`) and the counted intake of the
 * EXPENDITURE_WINDOW_DAYS up to `asOf`. Null without any weight to start the formula from.
 */
export function estimateExpenditure(input: { trend: TrendPoint[]; intake: IntakeDay[]; profile: Profile; latestKg: number | null; asOf: string }): Expenditure | null {
  const asOfDay = dayNumber(input.asOf);
  const inWindow = (date: string) => {
    const day = dayNumber(date);
    return day <= asOfDay && day > asOfDay - EXPENDITURE_WINDOW_DAYS;
  };
  const points = input.trend.filter((point) => inWindow(point.date));
  const kg = input.latestKg ?? points.at(-1)?.trendKg ?? null;
  if (kg === null) return null;
  const prior = formulaExpenditure(input.profile, kg, input.asOf);
  const formulaMethod = `Mifflin–St Jeor × ${prior.factor} (activity)`;
  const counted = new Map(input.intake.filter((day) => day.counted && inWindow(day.date)).map((day) => [dayNumber(day.date), day.kcal]));
  const readings = new Map(points.filter((point) => point.kg !== null).map((point) => [dayNumber(point.date), point.kg!]));
  if (counted.size === 0 || readings.size < 2) {
    return describe(prior.kcal, prior.sd, counted.size, `${formulaMethod}; too few weigh-ins and counted days for energy balance`);
  }

  const loggedKcal = [...counted.values()];
  const meanKcal = loggedKcal.reduce((sum, kcal) => sum + kcal, 0) / loggedKcal.length;
  const spreadKcal = loggedKcal.reduce((sum, kcal) => sum + (kcal - meanKcal) ** 2, 0) / Math.max(1, loggedKcal.length - 1);
  const days: BalanceDays = {
    readings, counted, meanKcal, asOfDay,
    // A day not counted was eaten all the same: as much as a usual counted day, give or take their spread.
    uncountedVariance: spreadKcal,
    readingVariance: readingSdKg(points) ** 2,
    first: Math.min(...readings.keys()),
  };
  // Bayesian model averaging over how far the formula may be off and whether (and in which week) expenditure
  // changed: each model's filter is exact for its assumptions, and the readings weigh the models by how well
  // each predicted them.
  const fits = balanceModels(days).map((model) => ({ model, fit: filterBalance(days, prior.kcal, prior.sd * model.priorSdScale, model.changeDay) }));
  const best = Math.max(...fits.map(({ fit }) => fit.logLikelihood));
  const weights = fits.map(({ model, fit }) => model.weight * Math.exp(fit.logLikelihood - best));
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const mean = fits.reduce((sum, { fit }, i) => sum + (weights[i]! / total) * fit.kcal, 0);
  const variance = fits.reduce((sum, { fit }, i) => sum + (weights[i]! / total) * (fit.variance + (fit.kcal - mean) ** 2), 0);
  const span = asOfDay - days.first + 1;
  return describe(mean, Math.sqrt(variance), counted.size, `energy balance (${KCAL_PER_KG} kcal/kg) over ${span} days, ${counted.size} counted, starting from ${formulaMethod}`);
}

/** Prior weights of the formula being right to its SD or far off (its SD ×3: an athlete who said "light"). */
const PRIOR_SD_SCALES = [{ scale: 1, weight: 0.75 }, { scale: 3, weight: 0.25 }] as const;
/** Chance that expenditure changes in a given week (a new job, a sport, an injury), and by how much (SD). */
const WEEKLY_CHANGE_PROBABILITY = 0.04;
const CHANGE_SD_KCAL = 300;
/** A change is looked for on every 7th day from this long after the first reading to this long before `asOf`. */
const CHANGE_MARGIN_DAYS = 7;

function balanceModels(days: BalanceDays) {
  const changeDays: (number | null)[] = [null];
  for (let day = days.asOfDay - CHANGE_MARGIN_DAYS; day >= days.first + CHANGE_MARGIN_DAYS; day -= 7) changeDays.push(day);
  return PRIOR_SD_SCALES.flatMap(({ scale, weight }) =>
    changeDays.map((changeDay) => ({
      priorSdScale: scale,
      changeDay,
      weight: weight * (changeDay === null ? Math.max(0.5, 1 - WEEKLY_CHANGE_PROBABILITY * (changeDays.length - 1)) : WEEKLY_CHANGE_PROBABILITY),
    })),
  );
}

interface BalanceDays {
  readings: Map<number, number>;
  counted: Map<number, number>;
  meanKcal: number;
  uncountedVariance: number;
  readingVariance: number;
  first: number;
  asOfDay: number;
}

/** What nothing is known of the weight before the first reading is taken to be (its variance, kg²). */
const UNKNOWN_WEIGHT_VARIANCE = 1e4;

/**
 * Kalman filter on (true weight w, expenditure e) from the first reading to `asOfDay`: e's estimate and variance
 * on that day and the log-likelihood of the readings under the model (the first reading's excepted: it only
 * places the weight).
 */
function filterBalance(days: BalanceDays, priorKcal: number, priorSd: number, changeDay: number | null) {
  const r = days.readingVariance;
  const k = 1 / KCAL_PER_KG;
  let w = days.readings.get(days.first)!;
  let e = priorKcal;
  // Covariance [var w, cov, var e].
  let p: [number, number, number] = [UNKNOWN_WEIGHT_VARIANCE, 0, priorSd ** 2];
  let logLikelihood = 0;
  for (let day = days.first; ; day++) {
    const reading = days.readings.get(day);
    if (reading !== undefined) {
      const s = p[0] + r;
      const gainW = p[0] / s;
      const gainE = p[1] / s;
      const innovation = reading - w;
      if (day !== days.first) logLikelihood -= 0.5 * (Math.log(2 * Math.PI * s) + (innovation * innovation) / s);
      w += gainW * innovation;
      e += gainE * innovation;
      p = [p[0] - gainW * p[0], p[1] - gainW * p[1], p[2] - gainE * p[1]];
    }
    if (day === days.asOfDay) break;
    // Tomorrow morning's weight = today's + (today's intake − expenditure) / KCAL_PER_KG.
    const logged = days.counted.get(day);
    const intakeVariance = logged === undefined ? days.uncountedVariance : (LOGGED_INTAKE_RELATIVE_SD * logged) ** 2;
    w += ((logged ?? days.meanKcal) - e) * k;
    p = [
      p[0] - 2 * k * p[1] + k * k * p[2] + UNEXPLAINED_WEIGHT_SD_KG ** 2 + intakeVariance * k * k,
      p[1] - k * p[2],
      p[2] + EXPENDITURE_DRIFT_KCAL ** 2 + (day === changeDay ? CHANGE_SD_KCAL ** 2 : 0),
    ];
  }
  return { kcal: e, variance: p[2], logLikelihood };
}

function describe(kcal: number, sd: number, daysCounted: number, method: string): Expenditure {
  const confidence: Confidence = daysCounted < MIN_COUNTED_DAYS ? "formula" : sd <= CONFIDENCE_SD_KCAL.high ? "high" : sd <= CONFIDENCE_SD_KCAL.medium ? "medium" : "low";
  return { kcal: round10(kcal), low: round10(kcal - RANGE_Z * sd), high: round10(kcal + RANGE_Z * sd), confidence, daysCounted, method };
}
