import type { ActivityType } from "@fit/contracts";

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
  /** Only what the file states (TCX Calories, FIT total_calories); never estimated here. */
  energyKcal: number | null;
  avgHr: number | null;
  maxHr: number | null;
  avgPowerW: number | null;
  avgCadence: number | null;
}

/** A refusal whose message can be shown to the person who uploaded the file. */
export class ActivityFileError extends Error {
  override readonly name = "ActivityFileError";
}
