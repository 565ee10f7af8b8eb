import { gpx } from "@tmcw/togeojson";
import type { Document } from "@xmldom/xmldom";
import { activityTypeFromLabel } from "./activity-type.ts";
import { trackSegments } from "./geojson-track.ts";
import { ActivityFileError, type ImportedActivity } from "./imported-activity.ts";
import { sensorReadings } from "./sensor-readings.ts";
import { sensorSummary } from "./stats.ts";
import { trackMetrics } from "./track-metrics.ts";
import { childElements, childText } from "./xml-document.ts";

/** GPX states no totals, so everything but the name and type is computed from the track. */
export const parseGpx = (doc: Document): ImportedActivity => {
  const segments = trackSegments(gpx(doc));
  if (segments.length === 0) throw new ActivityFileError("the file has no track points");
  const metrics = trackMetrics(segments);
  if (metrics.startedAt === null || metrics.durationS === null) throw new ActivityFileError("the file has no timestamps");
  const root = doc.documentElement;
  const firstTrack = childElements(root, "trk")[0];
  return {
    format: "gpx",
    activityType: activityTypeFromLabel(childText(firstTrack, "type")),
    name: childText(firstTrack, "name") ?? childText(childElements(root, "metadata")[0], "name"),
    startedAt: metrics.startedAt,
    durationS: metrics.durationS,
    movingDurationS: metrics.movingDurationS,
    distanceM: metrics.distanceM,
    elevationGainM: metrics.elevationGainM,
    energyKcal: null,
    ...sensorSummary(sensorReadings(doc, "gpx")),
  };
};
