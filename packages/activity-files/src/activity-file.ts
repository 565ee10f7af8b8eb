import { hasFitHeader, readXmlActivity } from "./detect-format.ts";
import { parseFit } from "./fit.ts";
import { ActivityFileError, type ImportedActivity } from "./imported-activity.ts";

export { ActivityFileError, ActivityFileTooLarge, type ActivityFileFormat, type ImportedActivity } from "./imported-activity.ts";

const whole = (value: number | null) => (value === null ? null : Math.round(value));
const tenth = (value: number | null) => (value === null ? null : Math.round(value * 10) / 10);

/**
 * Zero kilocalories over a minute or more is a placeholder, not a measurement: TCX requires a `Calories` element,
 * and exporters without a figure (Strava, for a ride recorded without a heart-rate strap) write 0 into it.
 */
const PLACEHOLDER_ENERGY_MIN_S = 60;

/**
 * One rounding for every format: seconds, kcal, bpm, watts and rpm whole, metres to a tenth. Moving time is capped at
 * the elapsed time, which a device timer or the speed rule can overshoot by rounding. A placeholder energy is none.
 */
const rounded = (activity: ImportedActivity): ImportedActivity => {
  const durationS = Math.round(activity.durationS);
  const movingDurationS = whole(activity.movingDurationS);
  return {
    ...activity,
    startedAt: Math.round(activity.startedAt),
    durationS,
    movingDurationS: movingDurationS === null ? null : Math.min(movingDurationS, durationS),
    distanceM: tenth(activity.distanceM),
    elevationGainM: tenth(activity.elevationGainM),
    energyKcal: activity.energyKcal === 0 && durationS >= PLACEHOLDER_ENERGY_MIN_S ? null : whole(activity.energyKcal),
    avgHr: whole(activity.avgHr),
    maxHr: whole(activity.maxHr),
    avgPowerW: whole(activity.avgPowerW),
    avgCadence: whole(activity.avgCadence),
  };
};

/**
 * The activities of a file: one, or one per session of a multisport FIT file, in its order. Throws ActivityFileError (its message fit to show the uploader) for unknown formats, malformed or empty files,
 * ActivityFileTooLarge for files past the caps. The format is read from the content.
 */
export const parseActivityFile = (bytes: Uint8Array): ImportedActivity[] => {
  if (bytes.length === 0) throw new ActivityFileError("the file is empty");
  return (hasFitHeader(bytes) ? parseFit(bytes) : [readXmlActivity(bytes)]).map(rounded);
};
