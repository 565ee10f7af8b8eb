import { tcx } from "@tmcw/togeojson";
import type { Document, Element } from "@xmldom/xmldom";
import { activityTypeFromLabel } from "./activity-type.ts";
import { trackSegments } from "./geojson-track.ts";
import { ActivityFileError, type ImportedActivity } from "./imported-activity.ts";
import { sensorReadings } from "./sensor-readings.ts";
import { maxOf, sensorSummary, sumOf, weightedMean } from "./stats.ts";
import { timeSpan, trackMetrics } from "./track-metrics.ts";
import { childElements, childText, parseDateTime } from "./xml-document.ts";

interface LapTotals {
  startMs: number | null;
  totalTimeS: number | null;
  distanceM: number | null;
  calories: number | null;
  avgHr: number | null;
  maxHr: number | null;
}

const childNumber = (parent: Element | undefined, localName: string): number | null => {
  const value = Number.parseFloat(childText(parent, localName) ?? "");
  return Number.isFinite(value) ? value : null;
};

/** Read from the XML: togeojson skips laps without a positioned track (treadmill, indoor) and has no Calories. */
const readLap = (lap: Element): LapTotals => ({
  startMs: parseDateTime(lap.getAttribute("StartTime")),
  totalTimeS: childNumber(lap, "TotalTimeSeconds"),
  distanceM: childNumber(lap, "DistanceMeters"),
  calories: childNumber(lap, "Calories"),
  avgHr: childNumber(childElements(lap, "AverageHeartRateBpm")[0], "Value"),
  maxHr: childNumber(childElements(lap, "MaximumHeartRateBpm")[0], "Value"),
});

/** From the first lap's start to the end of the one ending last; laps may be separated by paused time. */
const lapsSpan = (laps: readonly LapTotals[]) => {
  const ends = laps.flatMap((lap) => (lap.startMs === null || lap.totalTimeS === null ? [] : [lap.startMs + lap.totalTimeS * 1000]));
  return ends.length > 0 ? timeSpan([...laps.map((lap) => lap.startMs), ...ends]) : null;
};

/**
 * The laps' stated DistanceMeters and Calories win over the track (a foot pod or wheel sensor beats GPS). Times come
 * from the track's timestamps when it has them: TotalTimeSeconds is the device's timer time, which some exporters
 * stop during pauses and others do not, so it only stands in for moving time and elapsed time when there is no
 * timed track.
 */
export const parseTcx = (doc: Document): ImportedActivity => {
  const activity = childElements(childElements(doc.documentElement, "Activities")[0], "Activity")[0];
  const laps = childElements(activity, "Lap").map(readLap);
  const segments = trackSegments(tcx(doc));
  if (segments.length === 0 && laps.length === 0) throw new ActivityFileError("the file has no track points");
  const metrics = trackMetrics(segments);
  const span = lapsSpan(laps);
  const startedAt = metrics.startedAt ?? span?.startMs ?? null;
  const durationS = metrics.durationS ?? span?.durationS ?? null;
  if (startedAt === null || durationS === null) throw new ActivityFileError("the file has no timestamps");
  const sensors = sensorSummary(sensorReadings(doc, "tcx"));
  return {
    format: "tcx",
    activityType: activityTypeFromLabel(activity?.getAttribute("Sport") ?? null),
    name: null,
    startedAt,
    durationS,
    movingDurationS: metrics.movingDurationS ?? sumOf(laps.map((lap) => lap.totalTimeS)),
    distanceM: sumOf(laps.map((lap) => lap.distanceM)) ?? (segments.length > 0 ? metrics.distanceM : null),
    elevationGainM: metrics.elevationGainM,
    energyKcal: sumOf(laps.map((lap) => lap.calories)),
    ...sensors,
    avgHr: sensors.avgHr ?? weightedMean(laps.map((lap) => ({ value: lap.avgHr, weight: lap.totalTimeS }))),
    maxHr: sensors.maxHr ?? maxOf(laps.map((lap) => lap.maxHr)),
  };
};
