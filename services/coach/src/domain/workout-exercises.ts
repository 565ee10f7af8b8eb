// Strength exercise extraction for the rule-based workout parser: "bench 3x8 @ 135 lb, 3 sets of 12 pull-ups".
import type { z } from "zod";
import type { Exercise } from "@fit/contracts";
import { EXERCISE_NAMES, type ExerciseName } from "./workout-exercise-names.ts";
import { type MaskedText, NUM } from "./workout-text.ts";
import { tenth } from "./numbers.ts";

type ExerciseItem = z.infer<typeof Exercise>;
export type Span = readonly [start: number, end: number];

interface Mention {
  entry: ExerciseName;
  start: number;
  end: number;
}

const LB_PER_KG = 2.20462;
const M_PER_YD = 0.9144;
const NAME = new RegExp(String.raw`\b(?:${EXERCISE_NAMES.map((e) => `(${e.pattern})`).join("|")})(?![a-z])`, "g");
// Clause breaks; "and" inside "clean and jerk" is ignored because it lies inside a name.
const SEPARATOR = /[,;\n+&]|(?<!\d)\.|\.(?!\d)|\b(?:then|and|plus|followed by)\b/g;
const SETS_OF = String.raw`(?<![\d.])(\d{1,3})\s*(?:x|sets?\s*(?:of|x)?)\s*`;
// Distances per set ("farmer's walk 3 x 40 m") are read by their own rule, not as reps.
const SET_SPEC = String.raw`${SETS_OF}(\d{1,4}(?:\.\d{1,2})?)(?:\s*(reps?|seconds?|secs?|s|minutes?|mins?|min))?(?![a-z\d]|\s*(?:\d|k?m|mi|miles?|met(?:er|re)s?|y(?:ar)?ds?)(?![a-z]))`;
const SETS_OF_DISTANCE = new RegExp(String.raw`${SETS_OF}(${NUM})\s*(m|met(?:er|re)s?|y(?:ar)?ds?)(?![a-z])`, "g");
const SETS_BY_REPS = new RegExp(SET_SPEC, "g");
const FIRST_SET_SPEC = new RegExp(SET_SPEC);
const WEIGHT = new RegExp(String.raw`(?<![\d.])(${NUM})\s*(kgs?|kilos?|kilograms?|lbs?|pounds?|#)(?![a-z])`, "g");
const SETS = /(?<![\d.])(\d{1,3})\s*sets?(?![a-z])/g;
const REPS = /(?<![\d.])(\d{1,4})\s*(?:reps?|times)(?![a-z])/g;
const HOLD_TIME = new RegExp(String.raw`(?<![\d.])(${NUM})\s*(seconds?|secs?|s|minutes?|mins?|min)(?![a-z])`, "g");
// A number without a unit after "@", "at" or "with" is a load in pounds: "bench 3x8 @ 135".
const AT_WEIGHT = new RegExp(String.raw`(?:@|\b(?:at|with)\b)\s*(${NUM})(?![\d.]|\s*[a-z])`, "g");
// The number right before a name counts its reps: "20 push-ups".
const NUMBER_AT_END = /(?<![\d.:x])(\d{1,4})\s*$/g;
const TIME_UNIT = /^(?:s|sec|min)/;
// Numbers followed by one of these belong to another rule (distance, time, heart rate...), not to a set.
const UNIT_AFTER = String.raw`kms?|k|m|mi|miles?|h|hrs?|hours?|mins?|minutes?|s|secs?|seconds?|sets?|reps?|kgs?|lbs?|w|watts?|bpm|kcal|cals?|calories|rounds?|yds?|yards?|met(?:er|re)s?|laps?|steps?|days?|am|pm|x|times`;
const BARE_NUMBER = new RegExp(String.raw`(?<![\d.:x])(${NUM})(?![\d.:x%/']|\s*(?:${UNIT_AFTER})(?![a-z]))`, "g");
const CARDIO_WORDS = /\b(?:ran|run|runs|running|jog\w*|sprints?|intervals?|rode|ride|bike|cycl\w*|swim|swam|rows?|rowed|rowing|laps?|hills?|strides|rounds?)\b/;
const STOPWORDS = new Set(["did", "do", "done", "then", "also", "i", "my", "some", "a", "the", "of", "at", "with", "for", "sets", "set", "reps", "rep", "x", "kg", "kgs", "lb", "lbs", "today", "yesterday", "this", "morning", "evening", "afternoon", "tonight", "on", "in"]);

const findMentions = (text: string): Mention[] =>
  [...text.matchAll(NAME)].flatMap((m) => {
    const entry = EXERCISE_NAMES[m.findIndex((group, i) => i > 0 && group !== undefined) - 1];
    return entry ? [{ entry, start: m.index, end: m.index + m[0].length }] : [];
  });

const clausesOf = (text: string, mentions: readonly Mention[]): Span[] => {
  const clauses: Span[] = [];
  let start = 0;
  for (const m of text.matchAll(SEPARATOR)) {
    if (mentions.some((n) => m.index >= n.start && m.index < n.end)) continue;
    clauses.push([start, m.index]);
    start = m.index + m[0].length;
  }
  clauses.push([start, text.length]);
  return clauses;
};

/**
 * Splits a clause holding several names: "bench 3x8 squat 3x5" (name first) cuts before each name,
 * "5x5 bench 3x5 squat" (numbers first) cuts after each.
 */
const chunksOf = (text: string, [from, to]: Span, names: readonly Mention[]): Span[] => {
  const nameFirst = !/\d/.test(text.slice(from, names[0]?.start ?? to));
  return names.map((n, i) =>
    nameFirst
      ? [i === 0 ? from : n.start, names[i + 1]?.start ?? to]
      : [i === 0 ? from : (names[i - 1]?.end ?? from), i === names.length - 1 ? to : n.end],
  );
};

/** Reads one exercise's numbers from its chunk, blanking what it uses so the workout-level rules skip them. */
const readExercise = (t: MaskedText, name: string, kind: ExerciseName["kind"], nameStart: number, [from, to]: Span): ExerciseItem => {
  const item: ExerciseItem = { exercise: name, sets: null, reps: null, weightLb: null, durationS: null, distanceM: null, notes: null };
  const fill = (key: "sets" | "reps" | "weightLb" | "durationS", value: number) => {
    item[key] ??= value;
    return true;
  };
  const within = (pattern: RegExp, accept: (m: RegExpExecArray) => boolean, start = from, end = to) => t.consume(pattern, accept, start, end);
  within(WEIGHT, (m) =>
    fill("weightLb", tenth(Number(m[1]) * (m[2]?.startsWith("k") ? LB_PER_KG : 1))),
  );
  within(SETS_BY_REPS, (m) => {
    const [first, second, unit = ""] = [Number(m[1]), Number(m[2]), m[3]];
    if (TIME_UNIT.test(unit)) {
      item.sets ??= first;
      item.durationS ??= second * (unit.startsWith("m") ? 60 : 1);
    } else if (first > 20) {
      // "225x5" is weight by reps: nobody does more than 20 sets.
      item.weightLb ??= first;
      item.reps ??= Math.round(second);
    } else {
      item.sets ??= first;
      item.reps ??= Math.round(second);
    }
    return true;
  });
  within(SETS_OF_DISTANCE, (m) => {
    fill("sets", Number(m[1]));
    item.distanceM ??= tenth(Number(m[2]) * (m[3]?.startsWith("y") ? M_PER_YD : 1));
    return true;
  });
  within(SETS, (m) => fill("sets", Number(m[1])));
  within(REPS, (m) => fill("reps", Number(m[1])));
  if (kind === "hold") {
    within(HOLD_TIME, (m) =>
      fill("durationS", Number(m[1]) * (m[2]?.startsWith("m") ? 60 : 1)),
    );
  }
  within(AT_WEIGHT, (m) => fill("weightLb", Number(m[1])));
  within(NUMBER_AT_END, (m) => fill("reps", Number(m[1])), from, Math.max(from, nameStart));
  // A leftover number is reps for a bodyweight exercise; for a loaded one, up to 30 it is reps ("squats 20"),
  // above or once reps are known it is the load ("bench 135 3x8", "squat 225 for 5").
  if (kind !== "hold") {
    t.consume(BARE_NUMBER, (m) => {
      const value = Number(m[1]);
      if (kind === "bodyweight" || (item.reps === null && value <= 30)) item.reps ??= Math.round(value);
      else item.weightLb ??= value;
      return true;
    }, from, to);
  }
  return item;
};

const singular = (word: string) => {
  if (word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (/(?:ch|sh|ss|x)es$/.test(word)) return word.slice(0, -2);
  return /[^su]s$/.test(word) ? word.slice(0, -1) : word;
};

/** A clause with sets but no known name ("cable flyes 3x12") is named by its words next to the sets. */
const genericName = (clause: string): string | null => {
  const spec = FIRST_SET_SPEC.exec(clause);
  if (!spec || TIME_UNIT.test(spec[3] ?? "") || CARDIO_WORDS.test(clause)) return null;
  const wordsOf = (text: string) => text.match(/[a-z][a-z'-]*/g) ?? [];
  const before = wordsOf(clause.slice(0, spec.index));
  const lastStop = before.findLastIndex((w) => STOPWORDS.has(w));
  const after = wordsOf(clause.slice(spec.index + spec[0].length));
  const firstStop = after.findIndex((w) => STOPWORDS.has(w));
  const words = before.length > lastStop + 1 ? before.slice(lastStop + 1).slice(-3) : after.slice(0, firstStop < 0 ? 3 : Math.min(firstStop, 3));
  return words.length === 0 ? null : [...words.slice(0, -1), singular(words.at(-1) ?? "")].join(" ");
};

/** Every exercise mention in reading order, plus where the known names are (they decide the activity too). */
export const takeExercises = (t: MaskedText): { exercises: ExerciseItem[]; nameSpans: Span[] } => {
  const text = t.text;
  const mentions = findMentions(text);
  const exercises: ExerciseItem[] = [];
  for (const clause of clausesOf(text, mentions)) {
    const names = mentions.filter((n) => n.start >= clause[0] && n.end <= clause[1]);
    if (names.length === 0) {
      const name = genericName(text.slice(clause[0], clause[1]));
      if (name) exercises.push(readExercise(t, name, "load", clause[0], clause));
      continue;
    }
    chunksOf(text, clause, names).forEach((chunk, i) => {
      const n = names[i];
      if (n) exercises.push(readExercise(t, n.entry.name, n.entry.kind, n.start, chunk));
    });
  }
  return { exercises, nameSpans: mentions.map((n) => [n.start, n.end] as const) };
};
