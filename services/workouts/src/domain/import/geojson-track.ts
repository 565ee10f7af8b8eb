import { z } from "zod";
import type { TrackSample } from "./track-metrics.ts";
import { parseDateTime } from "./xml-document.ts";

/**
 * A togeojson GPX track or TCX lap, reduced to its positions and times; sensor readings come from the XML (see
 * sensor-readings.ts). Waypoints are not lines and are skipped, and so are GPX routes (`_gpxType: "rte"`): a planned
 * route is not what was recorded.
 */
const Positions = z.array(z.tuple([z.number(), z.number()], z.number()));
const LineFeature = z.object({
  geometry: z.union([
    z.object({ type: z.literal("LineString"), coordinates: Positions }),
    z.object({ type: z.literal("MultiLineString"), coordinates: z.array(Positions) }),
  ]),
  properties: z.looseObject({
    _gpxType: z.literal("trk").optional(),
    coordinateProperties: z.record(z.string(), z.unknown()).optional(),
  }),
});
type LineFeature = z.infer<typeof LineFeature>;

const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === "string");

/**
 * togeojson lists only the times that exist, so when some points lack one the list is shorter than the line and it
 * cannot tell which; the segment then keeps just its first and last time, on its first and last point.
 */
const toSegment = (positions: z.infer<typeof Positions>, times: readonly string[] | undefined): TrackSample[] => {
  const aligned = times?.length === positions.length;
  const last = positions.length - 1;
  return positions.map(([lon, lat, ele], i) => {
    const time = aligned ? times[i] : i === 0 ? times?.[0] : i === last ? times?.at(-1) : undefined;
    return { lat, lon, ele: ele ?? null, timeMs: parseDateTime(time) };
  });
};

const segmentsOf = (feature: LineFeature): TrackSample[][] => {
  const times = feature.properties.coordinateProperties?.times;
  if (feature.geometry.type === "LineString") return [toSegment(feature.geometry.coordinates, isStrings(times) ? times : undefined)];
  const lines = feature.geometry.coordinates;
  // A multi-segment track lists times only for the segments that have some; unless every one has, none can be matched.
  const perSegment: unknown[] = Array.isArray(times) && times.length === lines.length ? times : [];
  return lines.map((positions, i) => {
    const segmentTimes = perSegment[i];
    return toSegment(positions, isStrings(segmentTimes) ? segmentTimes : undefined);
  });
};

const FeatureCollection = z.object({ features: z.array(z.unknown()) });

/** Takes what togeojson returns as unknown: its declared types come from packages this workspace does not install. */
export const trackSegments = (collection: unknown): TrackSample[][] =>
  (FeatureCollection.safeParse(collection).data?.features ?? []).flatMap((candidate) => {
    const parsed = LineFeature.safeParse(candidate);
    return parsed.success ? segmentsOf(parsed.data) : [];
  });
