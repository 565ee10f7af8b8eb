// Which activity a free-text workout describes.
//
// Rule: the earliest *strong* keyword wins ("run 2 km then 3x10 squats" is a run, "3x10 squats then a
// 2 km run" is strength training). A cardio word next to "warm-up"/"cool-down" is only *weak*, as are
// words that fit several activities ("5k" may be a row, "gym" may be a treadmill, "laps" may be a track).
// Weak keywords decide only when no strong one is present. Pilates counts as yoga: the contract has no
// pilates type and the Compendium puts both among low-intensity conditioning (3.0 vs 2.5 MET).
import type { z } from "zod";
import type { ActivityType } from "@fit/contracts";
import type { Span } from "./workout-exercises.ts";

type Activity = z.infer<typeof ActivityType>;

interface Keywords {
  activity: Activity;
  strong: RegExp;
  weak?: RegExp;
  /** Cardio words lose their strength next to "warm-up" or "cool-down". */
  cardio?: boolean;
}

const KEYWORDS: readonly Keywords[] = [
  { activity: "crossfit", strong: /\b(?:crossfit|wods?|amraps?|emoms?|metcons?)\b/g },
  {
    activity: "run",
    strong: /\b(?:run|runs|ran|running|jog|jogs|jogged|jogging|sprints?|sprinted|(?:half[- ]?)?marathon|parkrun)\b/g,
    weak: /\b(?:\d{1,3}k|treadmill|track)\b/g,
    cardio: true,
  },
  {
    activity: "ride",
    strong: /\b(?:bike|bikes|biked|biking|cycle|cycled|cycling|ride|rides|rode|riding|spin|spinning|peloton|zwift)\b/g,
    cardio: true,
  },
  {
    activity: "swim",
    strong: /\b(?:swim|swims|swam|swimming|freestyle|breaststroke|backstroke)\b/g,
    weak: /\b(?:laps?|lengths|pool)\b/g,
    cardio: true,
  },
  { activity: "walk", strong: /\b(?:walk|walks|walked|walking|stroll|strolled)\b/g, weak: /\bsteps\b/g, cardio: true },
  { activity: "hike", strong: /\b(?:hike|hikes|hiked|hiking|trek|trekked|trekking)\b/g, cardio: true },
  {
    activity: "strength_training",
    strong: /\b(?:lift|lifts|lifted|lifting|weightlifting|powerlifting|strength|press|curls?|bench|squats?|deadlifts?)\b/g,
    weak: /\b(?:gym|weights|sets?|reps?|\d{1,2}\s*x\s*\d{1,3})\b/g,
  },
  { activity: "yoga", strong: /\b(?:yoga|pilates|vinyasa|ashtanga|hatha)\b/g },
  { activity: "rowing", strong: /\b(?:row|rows|rowed|rowing|erg|ergs|ergometer|concept ?2)\b/g, cardio: true },
  { activity: "elliptical", strong: /\b(?:elliptical|cross[- ]?trainer)\b/g, cardio: true },
];

const WARM_UP = /warm[- ]?up|cool[- ]?down/;

const isWarmUp = (text: string, start: number, end: number) =>
  WARM_UP.test(text.slice(Math.max(0, start - 10), start)) || WARM_UP.test(text.slice(end, end + 10));

/** Position of the first keyword match that is not part of an exercise name ("farmer's walk", "barbell row"). */
const firstMatch = (text: string, pattern: RegExp, names: readonly Span[], skipWarmUp: boolean): number | null => {
  for (const m of text.matchAll(pattern)) {
    const end = m.index + m[0].length;
    if (names.some(([from, to]) => m.index >= from && m.index < to)) continue;
    if (skipWarmUp && isWarmUp(text, m.index, end)) continue;
    return m.index;
  }
  return null;
};

const earliest = (candidates: readonly (readonly [Activity, number | null])[]): Activity | null => {
  let best: readonly [Activity, number] | null = null;
  for (const [activity, at] of candidates) if (at !== null && (best === null || at < best[1])) best = [activity, at];
  return best?.[0] ?? null;
};

/** `names` are the spans of recognised strength exercises: each is a strong strength keyword. */
export const detectActivity = (text: string, names: readonly Span[]): Activity => {
  const strong = KEYWORDS.map(({ activity, strong, cardio }) => [activity, firstMatch(text, strong, names, cardio === true)] as const);
  const firstName = names[0]?.[0] ?? null;
  const fromStrong = earliest([...strong, ["strength_training", firstName]]);
  if (fromStrong) return fromStrong;
  const weak = KEYWORDS.flatMap(({ activity, strong: strongPattern, weak: weakPattern, cardio }) => [
    [activity, weakPattern ? firstMatch(text, weakPattern, names, false) : null] as const,
    [activity, cardio ? firstMatch(text, strongPattern, names, false) : null] as const,
  ]);
  return earliest(weak) ?? "other";
};
