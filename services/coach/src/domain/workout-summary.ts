// The short title of a parsed workout: "5 km run", "45 min yoga", "Strength: bench press, squat".
import type { z } from "zod";
import type { ActivityType } from "@fit/contracts";

const MAX_CHARS = 80;

const NOUNS: Record<z.infer<typeof ActivityType>, string> = {
  run: "run",
  ride: "ride",
  swim: "swim",
  walk: "walk",
  hike: "hike",
  strength_training: "strength training",
  yoga: "yoga",
  rowing: "row",
  elliptical: "elliptical",
  crossfit: "CrossFit",
  other: "workout",
};

const formatDuration = (seconds: number): string => {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const rest = minutes % 60;
  return rest === 0 ? `${minutes / 60} h` : `${Math.floor(minutes / 60)} h ${rest} min`;
};

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

const clipped = (text: string) => (text.length <= MAX_CHARS ? text : `${text.slice(0, MAX_CHARS - 1).trimEnd()}…`);

interface SummaryParts {
  activityType: z.infer<typeof ActivityType>;
  /** "5 km" as the user put it; null when the distance was neither stated nor derived. */
  distanceLabel: string | null;
  durationS: number | null;
  exerciseNames: readonly string[];
}

/** Activity with its main metric (distance before duration), then the exercise names when there are any. */
export const summarize = ({ activityType, distanceLabel, durationS, exerciseNames }: SummaryParts): string => {
  const metric = distanceLabel ?? (durationS === null ? null : formatDuration(durationS));
  const names = [...new Set(exerciseNames)].join(", ");
  if (activityType === "strength_training" && names) return clipped(`Strength: ${names}`);
  const base = capitalized(metric === null ? NOUNS[activityType] : `${metric} ${NOUNS[activityType]}`);
  if (!names) return clipped(base);
  return clipped(activityType === "crossfit" ? `${base}: ${names}` : `${base} + ${names}`);
};
