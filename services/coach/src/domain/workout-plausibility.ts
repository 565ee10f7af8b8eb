// Whether a workout read from text can be true, and which reading of a bare "a:b" time makes it so.
import type { ParsedWorkout } from "./workout-parser.ts";

type Activity = ParsedWorkout["activityType"];

/**
 * The fastest anyone goes in each activity that covers ground, in km/h, and who does it: above the average speed
 * of the activity's fastest record (100 m run 37.6, 20 km race walk 15.7, flying 200 m on a track bike about 79,
 * 50 m freestyle 8.6, a rowing eight over 2000 m 22.6), so no real effort is refused.
 * Hiking is walking. An elliptical's distance is whatever the machine counts, so it has no ceiling.
 */
const CEILINGS: Partial<Record<Activity, { kmh: number; doer: string }>> = {
  run: { kmh: 40, doer: "runs" },
  walk: { kmh: 18, doer: "walks" },
  hike: { kmh: 18, doer: "hikes" },
  ride: { kmh: 80, doer: "rides" },
  swim: { kmh: 9, doer: "swims" },
  rowing: { kmh: 30, doer: "rows" },
};

/** Nobody logs a run, walk, hike, ride, swim or row this short as a session: "ran 1:30" is not 90 seconds. */
const SHORTEST_SESSION_S = 5 * 60;

type Covered = Pick<ParsedWorkout, "activityType" | "distanceM" | "durationS">;

/** The speed of "5 km in 2 min" of running when no one goes that fast; null when someone can, or it is not known. */
const impossibleKmh = ({ activityType, distanceM, durationS }: Covered): number | null => {
  const ceiling = CEILINGS[activityType]?.kmh;
  const speed = distanceM !== null && durationS ? distanceM / 1000 / (durationS / 3600) : null;
  return ceiling !== undefined && speed !== null && speed > ceiling ? speed : null;
};

/**
 * Why the workout as read cannot be true, for the user to correct: a zero time or distance, or a speed no one
 * reaches (nothing is done in 0 min or over 0 km, and no one runs 5 km in 2 min); null when it can be.
 */
export const whyImpossible = (read: Covered): string | null => {
  if (read.durationS === 0) return "it took 0 minutes";
  if (read.distanceM === 0) return "it covered no distance";
  const speed = impossibleKmh(read);
  return speed === null ? null : `${Math.round(speed)} km/h is faster than anyone ${CEILINGS[read.activityType]?.doer}`;
};

/**
 * A bare "a:b" given as a × 60 + b: m:ss, unless the activity covers ground and m:ss cannot be the workout,
 * then h:mm. With a distance, m:ss cannot be it when faster than anyone goes ("10 miles in 1:30" is 1 h 30 min,
 * "5 km in 25:30" 25 min 30 s); without one, when shorter than a session ("ran 1:30").
 */
export const readClock = (minutesSeconds: number, activityType: Activity, distanceM: number | null): number => {
  if (CEILINGS[activityType] === undefined) return minutesSeconds;
  const impossible = distanceM === null ? minutesSeconds < SHORTEST_SESSION_S : impossibleKmh({ activityType, distanceM, durationS: minutesSeconds }) !== null;
  return impossible ? minutesSeconds * 60 : minutesSeconds;
};
