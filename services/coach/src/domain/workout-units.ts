// Pace, duration and distance extraction for the rule-based workout parser.
import { type MaskedText, NUM, formatNumber } from "./workout-text.ts";
import { tenth } from "./numbers.ts";

const M_PER_KM = 1000;
const M_PER_MI = 1609.344;
const M_PER_YD = 0.9144;
const DEFAULT_POOL_M = 25;

const num = (text: string | undefined) => Number(text ?? 0);

const metersPerPaceUnit = (unit: string, mentionsMiles: boolean): number => {
  if (unit.startsWith("100")) return unit.includes("y") ? 100 * M_PER_YD : 100;
  if (unit.startsWith("mi")) return M_PER_MI;
  if (unit.startsWith("k")) return M_PER_KM;
  return mentionsMiles ? M_PER_MI : M_PER_KM;
};

const PACE_UNIT = String.raw`(100\s*m|100\s*y(?:ar)?ds?|kilomet(?:er|re)s?|km|k|miles?|mi)(?![a-z])`;
const PER = String.raw`\s*(?:min(?:utes?|s)?\s*)?(?:\/|per\s*)`;
const SPEED = new RegExp(String.raw`(${NUM})\s*(km\/h|kmh|kph|km per hour|kilomet(?:er|re)s? per hour|mph|miles? per hour)(?![a-z])`, "g");
const PACE_RULES: readonly (readonly [RegExp, (m: RegExpExecArray) => [seconds: number, unit: string]])[] = [
  [new RegExp(String.raw`(?<![\d:])(\d{1,2}):([0-5]\d)${PER}${PACE_UNIT}`, "g"), (m) => [num(m[1]) * 60 + num(m[2]), m[3] ?? ""]],
  [new RegExp(String.raw`(${NUM})\s*(?:min(?:utes?|s)?)\s*(?:\/|per\s*)${PACE_UNIT}`, "g"), (m) => [num(m[1]) * 60, m[2] ?? ""]],
  // "5:30 pace" names no unit: a runner who writes distances in miles means minutes per mile.
  [/(?<![\d:])(\d{1,2}):([0-5]\d)\s*(?:min\s*)?pace\b/g, (m) => [num(m[1]) * 60 + num(m[2]), ""]],
  [/\bpace\s*(?:of|was|at|:)?\s*(\d{1,2}):([0-5]\d)(?![\d:])/g, (m) => [num(m[1]) * 60 + num(m[2]), ""]],
];

/** The first pace or speed stated, as seconds per metre; every pace and speed is consumed. */
export const takePace = (t: MaskedText): number | null => {
  const mentionsMiles = /\b(?:mi|miles?|mph)\b/.test(t.text);
  const paces: number[] = [];
  for (const [pattern, read] of PACE_RULES) {
    t.consume(pattern, (m) => {
      const [seconds, unit] = read(m);
      if (seconds > 0) paces.push(seconds / metersPerPaceUnit(unit, mentionsMiles));
      return true;
    });
  }
  t.consume(SPEED, (m) => {
    const perHour = num(m[1]) * (m[2]?.startsWith("m") ? M_PER_MI : M_PER_KM);
    if (perHour > 0) paces.push(3600 / perHour);
    return true;
  });
  return paces[0] ?? null;
};

const HOURS = String.raw`(?:hours?|hrs?|h)(?![a-z])`;
const MINUTES = String.raw`(?:minutes?|mins?|mn)(?![a-z])`;
const SECONDS = String.raw`(?:seconds?|secs?|s)(?![a-z])`;
/** `clock`: a bare "a:b", read as a × 60 + b and left for readClock to take as m:ss or h:mm. */
const DURATION_RULES: readonly (readonly [RegExp, (m: RegExpExecArray) => number, clock?: true])[] = [
  [/\b(?:an?|one)\s+hour\s+and\s+a\s+half\b/g, () => 5400],
  [/\b(?:half\s+an|a\s+half|half\s+(?:of\s+)?an?)\s+hour\b/g, () => 1800],
  [/\b(?:an|one)\s+hour\b/g, () => 3600],
  [/(?<![\d:])(\d{1,2}):([0-5]\d):([0-5]\d)(?![\d:])/g, (m) => num(m[1]) * 3600 + num(m[2]) * 60 + num(m[3])],
  [new RegExp(String.raw`(?<![\d:])(\d{1,2}):([0-5]\d)\s*${HOURS}`, "g"), (m) => num(m[1]) * 3600 + num(m[2]) * 60],
  // "1:30 min" says which it is; a bare "a:b" does not.
  [new RegExp(String.raw`(?<![\d:])(\d{1,3}):([0-5]\d)\s*${MINUTES}`, "g"), (m) => num(m[1]) * 60 + num(m[2])],
  // A bare "27:45" (clock times were consumed before) is m:ss or h:mm: "5k in 27:45", "10 miles in 1:30".
  [/(?<![\d:])(\d{1,3}):([0-5]\d)(?![\d:])/g, (m) => num(m[1]) * 60 + num(m[2]), true],
  [
    new RegExp(String.raw`(${NUM})\s*${HOURS}(?:(\d{2})(?![\da-z])|\s*(?:and\s*)?(\d{1,2})\s*(?:${MINUTES}|m(?![a-z]))|\s*(and\s+a\s+half)\b)?`, "g"),
    (m) => num(m[1]) * 3600 + num(m[2] ?? m[3]) * 60 + (m[4] ? 1800 : 0),
  ],
  [new RegExp(String.raw`(${NUM})\s*m\s*(\d{1,2})\s*${SECONDS}`, "g"), (m) => num(m[1]) * 60 + num(m[2])],
  [new RegExp(String.raw`(${NUM})\s*${MINUTES}(?:\s*(?:and\s*)?(\d{1,2})\s*${SECONDS})?`, "g"), (m) => num(m[1]) * 60 + num(m[2])],
  [new RegExp(String.raw`(${NUM})\s*${SECONDS}`, "g"), (m) => num(m[1])],
];

/** "90s rest", "rest 2 min", "10 min warm-up", "3 hours ago" are durations that are not the workout's. */
const isNotWorkoutTime = (t: MaskedText, m: RegExpExecArray) =>
  /^\s*(?:of\s+)?(?:rest|break|recovery|ago|off|warm[- ]?up|cool[- ]?down)\b/.test(t.after(m.index + m[0].length)) ||
  /\b(?:rest|resting|break|recovery)\s*(?:of|for|:)?\s*$/.test(t.clauseBefore(m.index, 16));

/**
 * The workout's durations in seconds, a bare "a:b" apart in `clocks` (see DURATION_RULES). A stated 0 is kept:
 * "5 km in 0 min" is not a workout, and reading it as no time would log one at an easy pace.
 */
export const takeDuration = (t: MaskedText): { durations: number[]; clocks: number[] } => {
  const durations: number[] = [];
  const clocks: number[] = [];
  for (const [pattern, read, clock] of DURATION_RULES) {
    t.consume(pattern, (m) => {
      if (!isNotWorkoutTime(t, m)) (clock ? clocks : durations).push(read(m));
      return true;
    });
  }
  return { durations, clocks };
};

interface Distance {
  meters: number;
  /** How the summary names it: "5 km", "3 mi", "half marathon". */
  label: string;
}

const DISTANCE = new RegExp(
  String.raw`(?:(\d{1,3})\s*x\s*)?(${NUM})\s*(kilomet(?:er|re)s?|kms?|k|miles?|mi|met(?:er|re)s?|m|y(?:ar)?ds?)(?![a-z])`,
  "g",
);
const UNITS: readonly (readonly [prefix: string, meters: number, label: string])[] = [
  ["k", M_PER_KM, "km"],
  ["mi", M_PER_MI, "mi"],
  ["m", 1, "m"],
  ["y", M_PER_YD, "yd"],
];

const RACES: readonly (readonly [RegExp, number, string])[] = [
  [/\bhalf[- ]?marathon\b/g, 21097.5, "half marathon"],
  [/\bmarathon\b/g, 42195, "marathon"],
];

const poolLength = (t: MaskedText): number => {
  let meters = DEFAULT_POOL_M;
  t.consume(/(\d{2})\s*(m|met(?:er|re)s?|y(?:ar)?ds?)\s*pool\b/g, (m) => {
    meters = num(m[1]) * (m[2]?.startsWith("y") ? M_PER_YD : 1);
    return true;
  });
  return meters;
};

/**
 * The longest distance stated (a cool-down or an interval is shorter than the workout), 0 if that is what
 * the text says: "ran 0 km" is no run. Laps count
 * only for a swim, at the pool length stated ("50m pool") or 25 m; on a track a lap is not a known length.
 */
export const takeDistance = (t: MaskedText, isSwim: boolean): Distance | null => {
  const found: Distance[] = [];
  const pool = poolLength(t);
  for (const [pattern, meters, label] of RACES) {
    t.consume(pattern, () => {
      found.push({ meters, label });
      return true;
    });
  }
  t.consume(DISTANCE, (m) => {
    if (m[3] === "k" && /^\s*steps\b/.test(t.after(m.index + m[0].length))) return false;
    const unit = UNITS.find(([prefix]) => m[3]?.startsWith(prefix));
    const amount = num(m[2]) * num(m[1] ?? "1");
    if (!unit) return false;
    found.push({ meters: tenth(amount * unit[1]), label: `${formatNumber(amount)} ${unit[2]}` });
    return true;
  });
  if (isSwim) {
    t.consume(new RegExp(String.raw`(${NUM})\s*(?:laps?|lengths?)\b`, "g"), (m) => {
      const meters = tenth(num(m[1]) * pool);
      found.push({ meters, label: `${formatNumber(meters)} m` });
      return true;
    });
  }
  return found.reduce<Distance | null>((best, d) => (best === null || d.meters > best.meters ? d : best), null);
};
