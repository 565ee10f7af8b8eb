import { ActivityFileTooLarge, MAX_POINTS } from "./imported-activity.ts";
import type { TrackSample } from "./track-metrics.ts";

/** A point as it is read: its position may be missing until its last element has closed. */
export interface OpenPoint {
  lat: number | null;
  lon: number | null;
  ele: number | null;
  timeMs: number | null;
}

/**
 * The segments of a track as points arrive, GPX `trkseg` or TCX `Track` alike: a point without a position is left
 * out (a treadmill's), and so is a segment of fewer than two positioned points, which is no line. Counts every
 * point, positioned or not, against MAX_POINTS.
 */
export const trackCollector = () => {
  const segments: TrackSample[][] = [];
  let segment: TrackSample[] | null = null;
  let points = 0;
  return {
    segments: segments as readonly (readonly TrackSample[])[],
    openSegment: () => {
      segment = [];
    },
    closeSegment: () => {
      if (segment !== null && segment.length >= 2) segments.push(segment);
      segment = null;
    },
    /** A new point, or null when it sits outside a segment (counted all the same). */
    openPoint: (inSegment: boolean): OpenPoint | null => {
      if (++points > MAX_POINTS) throw new ActivityFileTooLarge(`the file is too large to read: more than ${MAX_POINTS} track points`);
      return inSegment && segment !== null ? { lat: null, lon: null, ele: null, timeMs: null } : null;
    },
    closePoint: (point: OpenPoint | null) => {
      if (point === null || point.lat === null || point.lon === null) return;
      segment?.push({ lat: point.lat, lon: point.lon, ele: point.ele, timeMs: point.timeMs });
    },
  };
};

/** A name from the file, as the workout's summary holds it (200 characters at most). */
export const nameOf = (text: string): string | null => text.trim().slice(0, 200) || null;
