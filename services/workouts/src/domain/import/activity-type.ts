import type { ActivityType } from "@fit/contracts";

/**
 * GPX `<type>` is free text ("running", "Run", "TrailRun", "road_biking", "VirtualRide"…) and TCX `Sport` is
 * Running/Biking/Other, so labels are matched by a word stem they contain. First match wins, which is why "motor"
 * comes first: motorcycling is not a ride.
 */
const LABEL_KEYWORDS: readonly (readonly [keyword: string, type: ActivityType])[] = [
  ["motor", "other"],
  ["crossfit", "crossfit"],
  ["yoga", "yoga"],
  ["elliptical", "elliptical"],
  ["strength", "strength_training"],
  ["weight", "strength_training"],
  ["swim", "swim"],
  ["row", "rowing"],
  ["run", "run"],
  ["hik", "hike"],
  ["walk", "walk"],
  ["cycl", "ride"],
  ["bik", "ride"],
  ["ride", "ride"],
];

export const activityTypeFromLabel = (label: string | null): ActivityType => {
  const normalized = (label ?? "").toLowerCase();
  return LABEL_KEYWORDS.find(([keyword]) => normalized.includes(keyword))?.[1] ?? "other";
};

/** FIT sub-sports are more specific than sports (training/yoga, fitness equipment/elliptical), so they are asked first. */
const FIT_SUB_SPORTS: Readonly<Record<string, ActivityType>> = {
  treadmill: "run",
  indoorRunning: "run",
  trail: "run",
  indoorCycling: "ride",
  spin: "ride",
  indoorWalking: "walk",
  lapSwimming: "swim",
  openWater: "swim",
  indoorRowing: "rowing",
  elliptical: "elliptical",
  strengthTraining: "strength_training",
  yoga: "yoga",
  // CrossFit-style workouts are recorded as HIIT and its AMRAP/EMOM/Tabata formats.
  hiit: "crossfit",
  amrap: "crossfit",
  emom: "crossfit",
  tabata: "crossfit",
};

const FIT_SPORTS: Readonly<Record<string, ActivityType>> = {
  running: "run",
  cycling: "ride",
  eBiking: "ride",
  swimming: "swim",
  walking: "walk",
  hiking: "hike",
  training: "strength_training",
  rowing: "rowing",
  hiit: "crossfit",
};

/** The decoder gives enum values as strings; a number means a value newer than the SDK's profile. */
export const activityTypeFromFitSport = (sport: unknown, subSport: unknown): ActivityType =>
  (typeof subSport === "string" ? FIT_SUB_SPORTS[subSport] : undefined) ??
  (typeof sport === "string" ? FIT_SPORTS[sport] : undefined) ??
  "other";
