// Heart rate, power, cadence, elevation and stated-calorie extraction for the rule-based workout parser.
import { type MaskedText, NUM } from "./workout-text.ts";
import { tenth } from "./numbers.ts";

interface WorkoutMetrics {
  avgHr: number | null;
  maxHr: number | null;
  avgPowerW: number | null;
  avgCadence: number | null;
  elevationGainM: number | null;
  energyKcal: number | null;
}

const M_PER_FT = 0.3048;
const QUALIFIER = /\b(?:max(?:imum)?|peak(?:ed)?|top|highest|avg|average|averaged|mean)\b/g;
const FILLER = String.raw`(?:(?:avg|average|of|was|at|around|about|:|=|~)\s*){0,2}`;

/** The last qualifier before a value says which one it is: "avg hr 152, max hr 182", "peaked at 180 bpm". */
const isPeak = (t: MaskedText, m: RegExpExecArray, inner?: string) => {
  const words = [...t.clauseBefore(m.index).matchAll(QUALIFIER)].map((q) => q[0]);
  return /^(?:max|peak|top|highest)/.test(inner ?? words.at(-1) ?? "");
};

const inRange = (value: number, low: number, high: number) => (value >= low && value <= high ? value : null);

const heartRates = (t: MaskedText) => {
  let avgHr: number | null = null;
  let maxHr: number | null = null;
  const record = (m: RegExpExecArray, value: string | undefined, inner?: string) => {
    const bpm = inRange(Number(value), 30, 240);
    if (bpm === null) return false;
    if (isPeak(t, m, inner)) maxHr ??= bpm;
    else avgHr ??= bpm;
    return true;
  };
  // "1 hr 30" is a duration, not a heart rate: the keyword must not follow a number.
  t.consume(
    /(?<![\d.]\s?)\b(?:hr|heart[- ]?rate|pulse)\b\s*(?:(avg|average|averaged|max|maximum|peak|peaked|mean)\b\s*)?(?:(?:of|was|at|around|about|:|=|~)\s*)?(\d{2,3})(?!\d)(?:\s*bpm\b)?/g,
    (m) => record(m, m[2], m[1]),
  );
  t.consume(/(?<![\d.])(\d{2,3})\s*bpm\b/g, (m) => record(m, m[1]));
  return { avgHr, maxHr };
};

/** Average power and cadence: a peak, max or FTP figure is consumed but is not the average. */
const averageOf = (t: MaskedText, patterns: readonly RegExp[], low: number, high: number): number | null => {
  let average: number | null = null;
  for (const pattern of patterns) {
    t.consume(pattern, (m) => {
      const value = inRange(Number(m[1]), low, high);
      if (value !== null && !isPeak(t, m) && !/\bftp\b/.test(t.clauseBefore(m.index, 8))) average ??= value;
      return value !== null;
    });
  }
  return average;
};

const ELEVATION_UNIT = String.raw`(m|met(?:er|re)s?|ft|feet|foot)`;
const ELEVATION_RULES: readonly RegExp[] = [
  new RegExp(String.raw`(?<![\d.])(${NUM})\s*${ELEVATION_UNIT}\s*(?:of\s*)?(?:elevation|climbing|climb|gain|vert|ascent|d\+)`, "g"),
  new RegExp(
    String.raw`\b(?:climbed|climbing|climb|elevation(?:\s*gain)?|gain(?:ed)?|ascent|vert)\b\s*(?:(?:of|was|:|=)\s*)?(${NUM})(?:\s*${ELEVATION_UNIT}(?![a-z])|(?![\d.]|\s*[a-z]))`,
    "g",
  ),
];

const elevation = (t: MaskedText): number | null => {
  let meters: number | null = null;
  for (const pattern of ELEVATION_RULES) {
    t.consume(pattern, (m) => {
      meters ??= tenth(Number(m[1]) * (m[2]?.startsWith("f") ? M_PER_FT : 1));
      return true;
    });
  }
  return meters;
};

const statedCalories = (t: MaskedText): number | null => {
  let kcal: number | null = null;
  const rules = [
    new RegExp(String.raw`(?<![\d.])(${NUM})\s*(?:kcals?|kilocalories|calories|cals?)(?![a-z])`, "g"),
    new RegExp(String.raw`\b(?:calories|kcal|cals)\b\s*(?:burn(?:ed|t)?\s*)?(?:(?::|=|of|was)\s*)?(${NUM})(?![\d.])`, "g"),
  ];
  for (const pattern of rules) {
    t.consume(pattern, (m) => {
      kcal ??= Number(m[1]);
      return true;
    });
  }
  return kcal;
};

export const takeMetrics = (t: MaskedText): WorkoutMetrics => ({
  ...heartRates(t),
  avgPowerW: averageOf(t, [/(?<![\d.])(\d{2,4})\s*(?:w|watts?)(?![a-z])/g, new RegExp(String.raw`\bpower\b\s*${FILLER}(\d{2,4})(?!\d)`, "g")], 1, 2500),
  avgCadence: averageOf(
    t,
    [
      new RegExp(String.raw`\bcadence\b\s*${FILLER}(\d{2,3})(?!\d)(?:\s*(?:rpm|spm)\b)?`, "g"),
      /(?<![\d.])(\d{2,3})\s*(?:rpm|spm|steps?\s*(?:\/|per)\s*min(?:ute)?)\b/g,
    ],
    20,
    250,
  ),
  elevationGainM: elevation(t),
  energyKcal: statedCalories(t),
});
