import type { ActivityType } from "@fit/contracts";

/**
 * Strava's GPX export writes its activity type as a number (`<type>9</type>`): the codes its own exports and the
 * tools that read them agree on. Any other number is a type the interface has no word for.
 */
const STRAVA_TYPE_CODES: Readonly<Record<string, ActivityType>> = {
  "1": "ride",
  "4": "hike",
  "9": "run",
  "10": "walk",
  "16": "swim",
  "23": "rowing",
};

/**
 * The words the vendors write, compared without case, spaces, `_` or `-` ("road_biking", "ROAD_BIKING" and "Road
 * Biking" alike): Garmin (`running`, `treadmill_running`, `lap_swimming`), TomTom (`RUNNING`, `TREADMILL`,
 * `GYM`), Polar (`ROAD_BIKING`, `CROSS-TRAINER`), Suunto (`Trekking`, `OpenwaterSwimming`), COROS (`Open Water`,
 * `Pool Swim`, `Indoor Rower`), Strava's words (`VirtualRide`). Only words a stem below would get wrong are needed.
 */
const VENDOR_WORDS: Readonly<Record<string, ActivityType>> = {
  treadmill: "run",
  treadmillrunning: "run",
  trekking: "hike",
  mountaineering: "hike",
  openwater: "swim",
  crosstrainer: "elliptical",
  hiit: "crossfit",
  gym: "strength_training",
  mtb: "ride",
  spinning: "ride",
};

/**
 * Any other label is free text ("running", "Run", "TrailRun", "road_biking", "VirtualRide"…), so it is matched by a
 * word stem it contains. First match wins, which is why "motor" comes first: motorcycling is not a ride.
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

/** A GPX `<type>` or TCX `Sport` as one of the interface's types; "other" for what no vocabulary names. */
export const activityTypeFromLabel = (label: string | null): ActivityType => {
  const trimmed = (label ?? "").trim();
  if (/^\d+$/.test(trimmed)) return STRAVA_TYPE_CODES[String(Number(trimmed))] ?? "other";
  const normalized = trimmed.toLowerCase();
  const word = normalized.replace(/[\s_-]+/g, "");
  return (
    (Object.hasOwn(VENDOR_WORDS, word) ? VENDOR_WORDS[word] : undefined) ??
    LABEL_KEYWORDS.find(([keyword]) => normalized.includes(keyword))?.[1] ??
    "other"
  );
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
