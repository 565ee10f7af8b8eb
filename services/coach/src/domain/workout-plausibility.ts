// Whether a workout read from text can be true, and which reading of a bare "a:b" time makes it so.
import type { ParsedWorkout } from "./workout-parser.ts";

type Activity = ParsedWorkout["activityType"];

/**
 * The fastest anyone goes in each activity that covers ground, in km/h: above the average speed of the
 * activity's fastest record (100 m run 37.6, 20 km race walk 15.7, flying 200 m on a track bike about 79,
 * 50 m freestyle 8.6, a rowing eight over 2000 m 22.6), so no real effort is refused.
 * Hiking is walking. An elliptical's distance is whatever the machine counts, so it has no ceiling.
 */
const MAX_KMH: Partial<Record<Activity, number>> = { run: 40, walk: 18, hike: 18, ride: 80, swim: 9, rowing: 30 };

/** Nobody logs a run, walk, hike, ride, swim or row this short as a session: "ran 1:30" is not 90 seconds. */
const SHORTEST_SESSION_S = 5 * 60;

const kmh = (distanceM: number, durationS: number) => distanceM / 1000 / (durationS / 3600);

type Covered = Pick<ParsedWorkout, "activityType" | "distanceM" | "durationS">;

/** "5 km in 2 min" of running. False when the activity has no ceiling or the distance or duration is unknown. */
const isTooFast = ({ activityType, distanceM, durationS }: Covered): boolean => {
  const ceiling = MAX_KMH[activityType];
  return ceiling !== undefined && distanceM !== null && durationS !== null && kmh(distanceM, durationS) > ceiling;
};

const doer: Partial<Record<Activity, string>> = { run: "runs", walk: "walks", hike: "hikes", ride: "rides", swim: "swims", rowing: "rows" };

/**
 * Why the workout as read cannot be true, for the user to correct: a zero time or distance, or a speed no one
 * reaches (nothing is done in 0 min or over 0 km, and no one runs 5 km in 2 min); null when it can be.
 */
export const whyImpossible = (read: Covered): string | null => {
  if (read.durationS === 0) return "it took 0 minutes";
  if (read.distanceM === 0) return "it covered no distance";
  if (!isTooFast(read)) return null;
  return `${Math.round(kmh(read.distanceM!, read.durationS!))} km/h is faster than anyone ${doer[read.activityType] ?? "goes"}`;
};

/**
 * A bare "a:b" given as a × 60 + b: m:ss, unless the activity covers ground and m:ss cannot be the workout,
 * then h:mm. With a distance, m:ss cannot be it when faster than anyone goes ("10 miles in 1:30" is 1 h 30 min,
 * "5 km in 25:30" 25 min 30 s); without one, when shorter than a session ("ran 1:30").
 */
export const readClock = (minutesSeconds: number, activityType: Activity, distanceM: number | null): number => {
  if (MAX_KMH[activityType] === undefined) return minutesSeconds;
  const impossible = distanceM === null ? minutesSeconds < SHORTEST_SESSION_S : isTooFast({ activityType, distanceM, durationS: minutesSeconds });
  return impossible ? minutesSeconds * 60 : minutesSeconds;
};
