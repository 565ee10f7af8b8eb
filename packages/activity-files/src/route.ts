import { haversineM, type TrackSample } from "./track-metrics.ts";

/** `[lat, lon]` in degrees, to five decimals (about a metre): what a drawing of the route needs, no more. */
export type RoutePoint = [number, number];

/** One kilometre of the track (the last one may be shorter), timed from the track's own clock. */
export interface Split {
  /** 1 for the first kilometre. */
  km: number;
  distanceM: number;
  /** Elapsed seconds, pauses included, as the watch's own auto-lap counts them. */
  durationS: number;
}

/** The track as the detail page draws it: segments thinned to a drawing's resolution, and the kilometre splits. */
export interface Route {
  segments: RoutePoint[][];
  splits: Split[];
}

/** A line of at most this many points over the whole track: plenty for a drawing a screen wide. */
const MAX_DRAWN_POINTS = 1000;
const SPLIT_M = 1000;
/** A remainder shorter than this is GPS noise at the finish, not a split of its own. */
const MIN_LAST_SPLIT_M = 10;

const degrees = (value: number) => Math.round(value * 1e5) / 1e5;

/** Every `step`-th point of each segment, and its last, so the line still ends where the recording did. */
const thinned = (segments: readonly (readonly TrackSample[])[]): RoutePoint[][] => {
  const total = segments.reduce((sum, segment) => sum + segment.length, 0);
  const step = Math.max(1, Math.ceil(total / MAX_DRAWN_POINTS));
  return segments.map((segment) =>
    segment.filter((_, i) => i % step === 0 || i === segment.length - 1).map((point): RoutePoint => [degrees(point.lat), degrees(point.lon)]),
  );
};

/**
 * Splits at each full kilometre of distance along the segments (the gap between two segments is not distance, as
 * in distanceM), the time at a kilometre mark interpolated between the two points either side of it. None unless
 * every point has a time: an untimed track has distance but no pace.
 */
const splitsOf = (segments: readonly (readonly TrackSample[])[]): Split[] => {
  const samples = segments.flat();
  const start = samples[0]?.timeMs;
  if (start === undefined || start === null || samples.some((sample) => sample.timeMs === null)) return [];
  const splits: Split[] = [];
  let covered = 0;
  let markM = 0;
  let markMs = start;
  let lastMs = start;
  for (const segment of segments) {
    for (let i = 1; i < segment.length; i++) {
      const from = segment[i - 1]!;
      const to = segment[i]!;
      const stepM = haversineM(from, to);
      const [fromMs, toMs] = [from.timeMs!, to.timeMs!];
      while (stepM > 0 && covered + stepM >= markM + SPLIT_M) {
        const atMs = fromMs + ((markM + SPLIT_M - covered) / stepM) * (toMs - fromMs);
        splits.push({ km: splits.length + 1, distanceM: SPLIT_M, durationS: Math.round((atMs - markMs) / 1000) });
        markM += SPLIT_M;
        markMs = atMs;
      }
      covered += stepM;
      lastMs = toMs;
    }
  }
  const rest = covered - markM;
  if (rest >= MIN_LAST_SPLIT_M) {
    splits.push({ km: splits.length + 1, distanceM: Math.round(rest * 10) / 10, durationS: Math.round((lastMs - markMs) / 1000) });
  }
  return splits;
};

export const routeOf = (segments: readonly (readonly TrackSample[])[]): Route | null =>
  segments.length === 0 ? null : { segments: thinned(segments), splits: splitsOf(segments) };
