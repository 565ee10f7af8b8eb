// Workouts in words a person reads: activity names, durations, distances, paces.
import type { ActivityType } from "./types.ts";

export const ACTIVITIES: Record<ActivityType, string> = {
  run: "Run", ride: "Ride", swim: "Swim", walk: "Walk", hike: "Hike", strength_training: "Strength training", yoga: "Yoga",
  rowing: "Rowing", elliptical: "Elliptical", crossfit: "CrossFit", other: "Other",
};

/** Activities whose speed people read as a pace per kilometre rather than km/h. */
const PACED: ReadonlySet<ActivityType> = new Set(["run", "walk", "hike"]);

const pad = (n: number) => String(n).padStart(2, "0");

/** "1:05:09" or "27:03": a stopwatch's reading. */
export const clock = (seconds: number): string => {
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h > 0 ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
};

/** "2 h 10 min", "45 min": a total. */
export const duration = (seconds: number): string => {
  const minutes = Math.round(seconds / 60);
  const h = Math.floor(minutes / 60);
  return h > 0 ? `${h} h ${minutes % 60} min` : `${minutes} min`;
};

export const km = (metres: number): string => `${(metres / 1000).toFixed(2)} km`;

/** "5:00 /km" for a run, "24.3 km/h" for a ride. */
export const speed = (activity: ActivityType, metres: number, seconds: number): string | null => {
  if (metres <= 0 || seconds <= 0) return null;
  return PACED.has(activity) ? `${clock((seconds / metres) * 1000)} /km` : `${((metres / seconds) * 3.6).toFixed(1)} km/h`;
};
