import { activityTypeFromLabel } from "./activity-type.ts";
import { ActivityFileError, type ImportedActivity } from "./imported-activity.ts";
import { sensorReadings } from "./sensor-readings.ts";
import { maxOf, sensorSummary, sumOf, weightedMean } from "./stats.ts";
import { trackCollector, type OpenPoint } from "./track-reader.ts";
import { routeOf } from "./route.ts";
import { timeSpan, trackMetrics } from "./track-metrics.ts";
import { numberIn, parseDateTime, type XmlVisitor } from "./xml-document.ts";

interface LapTotals {
  startMs: number | null;
  totalTimeS: number | null;
  distanceM: number | null;
  calories: number | null;
  avgHr: number | null;
  maxHr: number | null;
}

/** A lap's own totals, its direct children (not the DistanceMeters of its trackpoints); heart rates in a `Value`. */
const LAP_FIELDS: Readonly<Record<string, keyof LapTotals>> = {
  TotalTimeSeconds: "totalTimeS",
  DistanceMeters: "distanceM",
  Calories: "calories",
};
const LAP_HEART_RATES: Readonly<Record<string, keyof LapTotals>> = {
  AverageHeartRateBpm: "avgHr",
  MaximumHeartRateBpm: "maxHr",
};

/** From the first lap's start to the end of the one ending last; laps may be separated by paused time. */
const lapsSpan = (laps: readonly LapTotals[]) => {
  const ends = laps.flatMap((lap) => (lap.startMs === null || lap.totalTimeS === null ? [] : [lap.startMs + lap.totalTimeS * 1000]));
  return ends.length > 0 ? timeSpan([...laps.map((lap) => lap.startMs), ...ends]) : null;
};

/**
 * A TCX document read as it streams by. The first activity's sport and laps give the stated totals (laps without
 * a positioned track too: treadmill, indoor); the tracks of every lap (`Lap/Track/Trackpoint`) give the points.
 * A course (`Courses`) is a plan, not a recording, and is left out.
 */
export const tcxReader = () => {
  const track = trackCollector();
  const sensors = sensorReadings("tcx");
  const laps: LapTotals[] = [];
  let activities = 0;
  let sport: string | null = null;
  let lap: LapTotals | null = null;
  let point: OpenPoint | null = null;
  let inPoint = false;

  const visitor: XmlVisitor = {
    open(name, path, attributes) {
      const parent = path.at(-1);
      if (name === "Activity" && parent === "Activities") {
        if (++activities === 1) sport = attributes["Sport"] ?? null;
      } else if (name === "Lap" && parent === "Activity" && activities === 1) {
        lap = { startMs: parseDateTime(attributes["StartTime"]), totalTimeS: null, distanceM: null, calories: null, avgHr: null, maxHr: null };
      } else if (name === "Track" && parent === "Lap") track.openSegment();
      else if (name === "Trackpoint") {
        inPoint = true;
        point = track.openPoint(parent === "Track");
      }
    },
    close(name, path, text) {
      const parent = path.at(-1);
      if (inPoint) {
        if (name === "Trackpoint") {
          track.closePoint(point);
          point = null;
          inPoint = false;
        } else if (point && parent === "Position" && name === "LatitudeDegrees") point.lat = numberIn(text);
        else if (point && parent === "Position" && name === "LongitudeDegrees") point.lon = numberIn(text);
        else if (point && parent === "Trackpoint" && name === "AltitudeMeters") point.ele = numberIn(text);
        else if (point && parent === "Trackpoint" && name === "Time") point.timeMs = parseDateTime(text.trim());
        else sensors.take(name, path, text);
      } else if (name === "Track") track.closeSegment();
      else if (lap && name === "Lap" && parent === "Activity") {
        laps.push(lap);
        lap = null;
      } else if (lap && parent === "Lap" && LAP_FIELDS[name]) lap[LAP_FIELDS[name]] ??= numberIn(text);
      else if (lap && name === "Value" && path.at(-2) === "Lap" && LAP_HEART_RATES[parent ?? ""]) {
        lap[LAP_HEART_RATES[parent ?? ""]!] ??= numberIn(text);
      }
    },
  };

  /**
   * The laps' stated DistanceMeters and Calories win over the track (a foot pod or wheel sensor beats GPS). Times
   * come from the track's timestamps when it has them: TotalTimeSeconds is the device's timer time, which some
   * exporters stop during pauses and others do not, so it only stands in for moving time and elapsed time when
   * there is no timed track.
   */
  const activity = (): ImportedActivity => {
    const { segments } = track;
    if (segments.length === 0 && laps.length === 0) throw new ActivityFileError("the file has no track points");
    const metrics = trackMetrics(segments);
    const span = lapsSpan(laps);
    const startedAt = metrics.startedAt ?? span?.startMs ?? null;
    const durationS = metrics.durationS ?? span?.durationS ?? null;
    if (startedAt === null || durationS === null) throw new ActivityFileError("the file has no timestamps");
    const summary = sensorSummary(sensors.readings);
    return {
      format: "tcx",
      activityType: activityTypeFromLabel(sport),
      name: null,
      startedAt,
      durationS,
      movingDurationS: metrics.movingDurationS ?? sumOf(laps.map((lap) => lap.totalTimeS)),
      distanceM: sumOf(laps.map((lap) => lap.distanceM)) ?? (segments.length > 0 ? metrics.distanceM : null),
      elevationGainM: metrics.elevationGainM,
      energyKcal: sumOf(laps.map((lap) => lap.calories)),
      ...summary,
      avgHr: summary.avgHr ?? weightedMean(laps.map((lap) => ({ value: lap.avgHr, weight: lap.totalTimeS }))),
      maxHr: summary.maxHr ?? maxOf(laps.map((lap) => lap.maxHr)),
      route: routeOf(segments),
    };
  };
  return { ...visitor, activity };
};
