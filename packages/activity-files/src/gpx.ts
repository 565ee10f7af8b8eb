import { activityTypeFromLabel } from "./activity-type.ts";
import { ActivityFileError, type ImportedActivity } from "./imported-activity.ts";
import { sensorReadings } from "./sensor-readings.ts";
import { sensorSummary } from "./stats.ts";
import { routeOf } from "./route.ts";
import { nameOf, trackCollector, type OpenPoint } from "./track-reader.ts";
import { trackMetrics } from "./track-metrics.ts";
import { numberIn, parseDateTime, type XmlVisitor } from "./xml-document.ts";

/**
 * A GPX document read as it streams by: the segments of its tracks (`trk/trkseg/trkpt`), the first track's name
 * and type, the metadata's name. Routes (`rte`) and waypoints are left out: a planned route is not what was
 * recorded. Each point keeps its own `ele` and `time`. GPX states no totals, so everything but the name and type
 * is computed from the track.
 */
export const gpxReader = () => {
  const track = trackCollector();
  const sensors = sensorReadings("gpx");
  let tracks = 0;
  let point: OpenPoint | null = null;
  let inPoint = false;
  let trackName: string | null = null;
  let trackType: string | null = null;
  let metadataName: string | null = null;

  const visitor: XmlVisitor = {
    open(name, path, attributes) {
      if (name === "trk") tracks++;
      else if (name === "trkseg" && path.at(-1) === "trk") track.openSegment();
      else if (name === "trkpt") {
        inPoint = true;
        point = track.openPoint(path.at(-1) === "trkseg");
        if (point) {
          point.lat = numberIn(attributes["lat"]);
          point.lon = numberIn(attributes["lon"]);
        }
      }
    },
    close(name, path, text) {
      const parent = path.at(-1);
      if (inPoint) {
        if (name === "trkpt") {
          track.closePoint(point);
          point = null;
          inPoint = false;
        } else if (point && parent === "trkpt" && name === "ele") point.ele = numberIn(text);
        else if (point && parent === "trkpt" && name === "time") point.timeMs = parseDateTime(text.trim());
        else sensors.take(name, path, text);
      } else if (name === "trkseg") track.closeSegment();
      else if (parent === "trk" && tracks === 1 && name === "name") trackName ??= nameOf(text);
      else if (parent === "trk" && tracks === 1 && name === "type") trackType ??= text.trim();
      else if (parent === "metadata" && name === "name") metadataName ??= nameOf(text);
    },
  };

  const activity = (): ImportedActivity => {
    if (track.segments.length === 0) throw new ActivityFileError("the file has no track points");
    const metrics = trackMetrics(track.segments);
    if (metrics.startedAt === null || metrics.durationS === null) throw new ActivityFileError("the file has no timestamps");
    return {
      format: "gpx",
      activityType: activityTypeFromLabel(trackType),
      name: trackName ?? metadataName,
      startedAt: metrics.startedAt,
      durationS: metrics.durationS,
      movingDurationS: metrics.movingDurationS,
      distanceM: metrics.distanceM,
      elevationGainM: metrics.elevationGainM,
      energyKcal: null,
      ...sensorSummary(sensors.readings),
      route: routeOf(track.segments),
    };
  };
  return { ...visitor, activity };
};
