import { fixDigits, type ReadLine } from "@fit/photos";
import type { ActivityType, ScreenFields } from "@fit/contracts";

/** What a console or summary screen showed; null where it showed nothing readable. */
type ScreenWorkout = ScreenFields;
export interface ScreenReading {
  workout: ScreenWorkout;
  /** Fields read from a line the reader was unsure of, or whose value does not fit the others. */
  lowConfidence: (keyof ScreenWorkout)[];
}

/** Below this a line's reading is not trusted as it stands (tesseract's 0–100 line confidence). */
const SURE_LINE = 70;

const ACTIVITY_WORDS: [RegExp, ActivityType][] = [
  [/treadmill|\brun|jog/i, "run"],
  [/bike|cycl|\bride|spin/i, "ride"],
  [/row(er|ing)?\b/i, "rowing"],
  [/elliptical|cross ?trainer/i, "elliptical"],
  [/\bwalk/i, "walk"],
  [/\bswim/i, "swim"],
  [/\bhike/i, "hike"],
];

const UNIT_M: Record<string, number> = { km: 1000, mi: 1609.344, miles: 1609.344, m: 1 };

/** "30:12" (mm:ss), "1:05:30" (h:mm:ss), "45 min": seconds. */
const durationOf = (line: string): number | null => {
  const clock = /\b(\d{1,3}):([0-5]\d)(?::([0-5]\d))?\b/.exec(line);
  if (clock) {
    const [a, b, c] = [Number(clock[1]), Number(clock[2]), clock[3] === undefined ? null : Number(clock[3])];
    return c === null ? a * 60 + b : a * 3600 + b * 60 + c;
  }
  const minutes = /\b(\d{1,3})\s*min/i.exec(line);
  return minutes ? Number(minutes[1]) * 60 : null;
};

/** "5.02 km", "3.1 mi", "2000 m": metres; OCR reads "km" as "kn" or "krn" at times. */
const distanceOf = (line: string): number | null => {
  const match = /(\d+(?:[.,]\d+)?)\s*(km|kn|krn|kin|mi|miles|m)\b/i.exec(line);
  if (!match) return null;
  const unit = match[2]!.toLowerCase().replace(/^(kn|krn|kin)$/, "km");
  return Math.round(Number(match[1]!.replace(",", ".")) * UNIT_M[unit]!);
};

const firstNumber = (line: string): number | null => {
  const match = /\d+(?:[.,]\d+)?/.exec(line);
  return match ? Number(match[0].replace(",", ".")) : null;
};

type Field = Exclude<keyof ScreenWorkout, "activityType">;
const LABELS: [Field, RegExp, (line: string) => number | null][] = [
  ["durationS", /\b(time|duration|elapsed|total time)\b/i, durationOf],
  ["distanceM", /\b(dist(ance)?)\b/i, distanceOf],
  ["energyKcal", /\b(calories|kcal|cal|energy)\b/i, (line) => firstNumber(line.replace(/\b(avg|average)\b.*$/i, ""))],
  ["avgHr", /\b(avg\.? ?hr|average heart rate|avg heart rate|heart rate|hr|bpm)\b/i, firstNumber],
];

/** Ranges a real session stays within; a value outside is a misread, never logged as it stands. */
const plausible = (workout: ScreenWorkout): Field[] => {
  const wrong: Field[] = [];
  const { durationS, distanceM, energyKcal, avgHr, activityType } = workout;
  if (durationS !== null && (durationS < 60 || durationS > 12 * 3600)) wrong.push("durationS");
  if (avgHr !== null && (avgHr < 40 || avgHr > 220)) wrong.push("avgHr");
  if (durationS && energyKcal !== null) {
    const perMinute = energyKcal / (durationS / 60);
    if (perMinute < 2 || perMinute > 25) wrong.push("energyKcal");
  }
  if (durationS && distanceM !== null) {
    const kmh = distanceM / 1000 / (durationS / 3600);
    const top = activityType === "ride" ? 70 : activityType === "swim" ? 8 : 25;
    if (kmh < 1 || kmh > top) wrong.push("distanceM");
  }
  return wrong;
};

/**
 * A console or summary screen's text → the workout it shows. Each metric comes from the line that names it
 * ("TIME 30:12", "DISTANCE 5.02 km", "CALORIES 320", "AVG HR 145"), else from a value that carries its unit
 * anywhere ("320 kcal", "5.02 km"). A field read from an unsure line is kept and listed in `lowConfidence`; one
 * that does not fit the others (a pace no one runs, kcal per minute no one burns) is listed there and left null.
 */
export const readScreen = (lines: readonly ReadLine[]): ScreenReading => {
  const fixed = lines.map((line) => ({ text: fixDigits(line.text), confidence: line.confidence }));
  const all = fixed.map((line) => line.text).join("\n");
  const workout: ScreenWorkout = {
    activityType: ACTIVITY_WORDS.find(([words]) => words.test(all))?.[1] ?? "other",
    durationS: null, distanceM: null, energyKcal: null, avgHr: null,
  };
  const unsure = new Set<keyof ScreenWorkout>();
  const take = (field: Field, value: number | null, confidence: number) => {
    if (value === null || workout[field] !== null) return;
    workout[field] = value;
    if (confidence < SURE_LINE) unsure.add(field);
  };
  for (const line of fixed) {
    for (const [field, label, read] of LABELS) if (label.test(line.text)) take(field, read(line.text), line.confidence);
  }
  for (const line of fixed) {
    take("distanceM", distanceOf(line.text), line.confidence);
    const kcal = /(\d+)\s*k?cal\b/i.exec(line.text);
    take("energyKcal", kcal ? Number(kcal[1]) : null, line.confidence);
    take("durationS", durationOf(line.text), line.confidence);
  }
  return checkScreen(workout, unsure);
};

/**
 * A screen's fields however they were read (on-device, or by the model with the fields it was unsure of): a value
 * that does not fit the others is a misread, left out and flagged, never logged as it stands.
 */
export const checkScreen = (read: ScreenWorkout, unsure: Iterable<string>): ScreenReading => {
  const workout = { ...read };
  const flagged = new Set(unsure);
  for (const field of plausible(workout)) {
    workout[field] = null;
    flagged.add(field);
  }
  return { workout, lowConfidence: [...flagged].filter((field): field is keyof ScreenWorkout => field in workout) };
};

const MINUTE_MS = 60_000;

/**
 * When a photographed workout started: a screen is photographed as the session ends, so its capture time less the
 * duration; the capture time is EXIF's wall clock at its own offset, else at the client's `tz`. Null without one:
 * the route then places it as a described workout is placed.
 */
export const startOfPhotographed = (
  takenAt: { localMs: number; offsetMin: number | null } | null,
  { tz, durationS }: { tz: number; durationS: number },
): number | null => {
  if (!takenAt) return null;
  // EXIF's offset is minutes east of UTC; getTimezoneOffset's is minutes to add to local time to reach UTC.
  const endedAt = takenAt.offsetMin !== null ? takenAt.localMs - takenAt.offsetMin * MINUTE_MS : takenAt.localMs + tz * MINUTE_MS;
  return endedAt - durationS * 1000;
};

const clock = (seconds: number) => {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = `${seconds % 60}`.padStart(2, "0");
  return h > 0 ? `${h}:${`${m}`.padStart(2, "0")}:${s}` : `${m}:${s}`;
};

/** The description of a photo-only log: what was read, in one line ("Run 5.02 km · 30:12 · 320 kcal · avg HR 145, from a photo"). */
export const photoSummary = (summary: string, { durationS, energyKcal, avgHr }: ScreenWorkout): string =>
  [summary, durationS !== null ? clock(durationS) : null, energyKcal !== null ? `${energyKcal} kcal` : null, avgHr !== null ? `avg HR ${avgHr}` : null]
    .filter((part) => part !== null)
    .join(" · ") + ", from a photo";
