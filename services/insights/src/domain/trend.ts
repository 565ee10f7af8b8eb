// Trend weight: a local-linear Kalman filter (level and slope per calendar day) smoothed backwards (Rauch–Tung–
// Striebel), so a day without a reading is a prediction, not a reading. Method and parameters: docs/decisions/0068.
import { dateOfDay, dayNumber } from "./calendar.ts";

/** One reading per day: the caller averages a day's readings. */
export interface Reading { date: string; kg: number }
/** A calendar day of the trend; `kg` is that day's reading, null on a day without one. */
export interface TrendPoint { date: string; trendKg: number; kg: number | null }

interface TrendOptions {
  /** SD of a reading around the true weight (water, salt, gut content); estimated from the readings when absent. */
  readingSdKg?: number;
  /** SD of a day's change of the true weight that the slope does not explain. */
  levelSdKg?: number;
  /** SD of a day's change of the slope (kg/day). */
  slopeSdKg?: number;
}

/** Defaults of TrendOptions, tuned on `pnpm bench:insights` (ADR 0068). */
const TREND_DEFAULTS = { levelSdKg: 0.05, slopeSdKg: 0.004 } as const;

/** What a reading's SD is taken to be before there are enough consecutive days to measure it. */
const DEFAULT_READING_SD_KG = 0.7;
/** Weight of that default, in pairs of consecutive days, against the pairs measured. */
const DEFAULT_READING_SD_PAIRS = 6;
/** The slope's SD before any reading (kg/day, ~0.7 kg/week): a person may be losing or gaining at any usual pace. */
const INITIAL_SLOPE_SD = 0.1;

/**
 * A reading's SD around the true weight, from the differences of readings on consecutive days: their median
 * absolute value is robust to a day of travel or a mis-typed weight, and a day's true change (~0.1 kg) is small
 * beside the noise. Blended with a default while few pairs exist, and kept within 0.2–1.5 kg.
 */
export function readingSdKg(readings: readonly Pick<TrendPoint, "date" | "kg">[]): number {
  const differences: number[] = [];
  let previous: { day: number; kg: number } | null = null;
  for (const reading of readings) {
    if (reading.kg === null) continue;
    const day = dayNumber(reading.date);
    if (previous !== null && day - previous.day === 1) differences.push(Math.abs(reading.kg - previous.kg));
    previous = { day, kg: reading.kg };
  }
  const measured = differences.length === 0 ? DEFAULT_READING_SD_KG : (median(differences) * 1.4826) / Math.SQRT2;
  const n = differences.length;
  const blended = Math.sqrt((n * measured ** 2 + DEFAULT_READING_SD_PAIRS * DEFAULT_READING_SD_KG ** 2) / (n + DEFAULT_READING_SD_PAIRS));
  return Math.min(1.5, Math.max(0.2, blended));
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  return Number.isInteger(mid) ? (sorted[mid - 1]! + sorted[mid]!) / 2 : sorted[Math.floor(mid)]!;
};

type Vector = [number, number];
/** A symmetric 2×2 covariance [a, b; b, d] as [a, b, d]. */
type Covariance = [number, number, number];

/**
 * The trend of the readings: a point per calendar day from the first reading to the last, oldest first. Each
 * point uses every reading given (a smoother, not a filter), so the last point is the filtered estimate and the
 * earlier ones are revised by later readings; pass only the readings up to a date for that date's trend.
 */
export function trendSeries(readings: Reading[], opts: TrendOptions = {}): TrendPoint[] {
  if (readings.length === 0) return [];
  const byDay = new Map<number, number>();
  for (const reading of readings) byDay.set(dayNumber(reading.date), reading.kg);
  const days = [...byDay.keys()].sort((a, b) => a - b);
  const first = days[0]!;
  const last = days.at(-1)!;
  const ordered = days.map((day) => ({ date: dateOfDay(day), kg: byDay.get(day)! }));
  const r = (opts.readingSdKg ?? readingSdKg(ordered)) ** 2;
  const qLevel = (opts.levelSdKg ?? TREND_DEFAULTS.levelSdKg) ** 2;
  const qSlope = (opts.slopeSdKg ?? TREND_DEFAULTS.slopeSdKg) ** 2;

  const filtered: { x: Vector; p: Covariance }[] = [];
  const predicted: { x: Vector; p: Covariance }[] = [];
  let x: Vector = [byDay.get(first)!, 0];
  let p: Covariance = [r, 0, INITIAL_SLOPE_SD ** 2];
  for (let day = first; day <= last; day++) {
    if (day > first) {
      // x ← F x, P ← F P Fᵀ + Q with F = [1 1; 0 1].
      x = [x[0] + x[1], x[1]];
      p = [p[0] + 2 * p[1] + p[2] + qLevel, p[1] + p[2], p[2] + qSlope];
    }
    predicted.push({ x, p });
    const kg = byDay.get(day);
    if (kg !== undefined) {
      const s = p[0] + r;
      const gain: Vector = [p[0] / s, p[1] / s];
      const innovation = kg - x[0];
      x = [x[0] + gain[0] * innovation, x[1] + gain[1] * innovation];
      p = [p[0] - gain[0] * p[0], p[1] - gain[0] * p[1], p[2] - gain[1] * p[1]];
    }
    filtered.push({ x, p });
  }

  const smoothed: Vector[] = new Array<Vector>(filtered.length);
  smoothed[filtered.length - 1] = filtered.at(-1)!.x;
  for (let i = filtered.length - 2; i >= 0; i--) {
    const { x: xf, p: pf } = filtered[i]!;
    const { x: xp, p: pp } = predicted[i + 1]!;
    // C = P_f Fᵀ P_p⁻¹; P_f Fᵀ = [a+b b; b+d d].
    const cross = [pf[0] + pf[1], pf[1], pf[1] + pf[2], pf[2]] as const;
    const det = pp[0] * pp[2] - pp[1] * pp[1];
    const inv = [pp[2] / det, -pp[1] / det, pp[0] / det] as const;
    const c = [
      cross[0] * inv[0] + cross[1] * inv[1], cross[0] * inv[1] + cross[1] * inv[2],
      cross[2] * inv[0] + cross[3] * inv[1], cross[2] * inv[1] + cross[3] * inv[2],
    ] as const;
    const next = smoothed[i + 1]!;
    const d0 = next[0] - xp[0];
    const d1 = next[1] - xp[1];
    smoothed[i] = [xf[0] + c[0] * d0 + c[1] * d1, xf[1] + c[2] * d0 + c[3] * d1];
  }
  return smoothed.map(([level], i) => {
    const day = first + i;
    return { date: dateOfDay(day), trendKg: level, kg: byDay.get(day) ?? null };
  });
}

/** The window of the weekly rate: the trend's change over the last 14 days, or over what there is of them. */
const RATE_WINDOW_DAYS = 14;
/** Below this span the trend's slope is mostly noise, so there is no rate. */
const MIN_RATE_WINDOW_DAYS = 7;

/**
 * The trend's change per week over the RATE_WINDOW_DAYS ending at its last point on or before `asOf` (shorter
 * when the trend is; null under a week of trend or without a point by `asOf`). Negative when losing.
 */
export function weeklyRate(trend: TrendPoint[], asOf: string): { kgPerWeek: number; windowDays: number } | null {
  const asOfDay = dayNumber(asOf);
  const points = trend.filter((point) => dayNumber(point.date) <= asOfDay);
  if (points.length === 0) return null;
  const end = points.at(-1)!;
  const endDay = dayNumber(end.date);
  const start = points.find((point) => dayNumber(point.date) >= endDay - RATE_WINDOW_DAYS)!;
  const windowDays = endDay - dayNumber(start.date);
  if (windowDays < MIN_RATE_WINDOW_DAYS) return null;
  return { kgPerWeek: ((end.trendKg - start.trendKg) / windowDays) * 7, windowDays };
}

/** Within this distance of the goal the trend has reached it (the trend's own uncertainty is about as large). */
export const AT_GOAL_KG = 0.25;
/** A slower rate is no movement: the date would be years away and meaningless. */
const MIN_RATE_KG_PER_WEEK = 0.02;
/** Farther than this, a goal date is not a forecast anyone should read. */
const MAX_FORECAST_DAYS = 5 * 365;

/**
 * The date the trend reaches `goalKg` at `kgPerWeek`: `asOf` when already there, null when moving away, not
 * moving, or more than five years off.
 */
export function goalDate(trendKg: number, kgPerWeek: number, goalKg: number, asOf: string): string | null {
  const distance = goalKg - trendKg;
  if (Math.abs(distance) <= AT_GOAL_KG) return asOf;
  if (Math.abs(kgPerWeek) < MIN_RATE_KG_PER_WEEK || Math.sign(kgPerWeek) !== Math.sign(distance)) return null;
  const days = Math.ceil((distance / kgPerWeek) * 7);
  return days > MAX_FORECAST_DAYS ? null : dateOfDay(dayNumber(asOf) + days);
}
