import type { ActivityType } from "@fit/contracts";
import type { Route } from "./route.ts";

export type ActivityFileFormat = "gpx" | "tcx" | "fit";

export interface ImportedActivity {
  format: ActivityFileFormat;
  activityType: ActivityType;
  /** The track's or activity's own name, when the file carries one. */
  name: string | null;
  /** Unix ms of the first timed point, or of the session start (FIT). */
  startedAt: number;
  /** Elapsed wall-clock seconds, pauses included. */
  durationS: number;
  movingDurationS: number | null;
  distanceM: number | null;
  elevationGainM: number | null;
  /** Only what the file states (TCX Calories, FIT total_calories), a placeholder 0 left out; never estimated here. */
  energyKcal: number | null;
  avgHr: number | null;
  maxHr: number | null;
  avgPowerW: number | null;
  avgCadence: number | null;
  /** The positioned track, thinned for drawing, with its kilometre splits; null for a file without positions. */
  route: Route | null;
}

/** A refusal whose message can be shown to the person who uploaded the file. */
export class ActivityFileError extends Error {
  override readonly name: string = "ActivityFileError";
}

/** A file past what one import reads (docs/security.md#25-activity-file-imports): a 413, not a malformed file. */
export class ActivityFileTooLarge extends ActivityFileError {
  override readonly name = "ActivityFileTooLarge";
}

/**
 * What one import reads at most, whatever the format. A day at one point a second is 86 400 points; a 10 MiB
 * file of real points holds under 100 000, and only a made-up one can hold more.
 */
export const MAX_POINTS = 250_000;

