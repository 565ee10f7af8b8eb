/** One recorded position; `ele` and `timeMs` are null when the file leaves them out. */
export interface TrackSample {
  lat: number;
  lon: number;
  ele: number | null;
  timeMs: number | null;
}

/** Points recorded without a break; the distance between two segments (GPS off, paused recording) is not counted. */
type Segment = readonly TrackSample[];

/** IUGG mean Earth radius. */
const EARTH_RADIUS_M = 6_371_008.8;
/** Slower than any walk, faster than the drift of a GPS fix at a standstill. */
const MOVING_SPEED_MPS = 0.5;
/** A longer silence means the recording stopped or lost signal; whether the person moved meanwhile is unknown. */
const MAX_MOVING_GAP_MS = 5 * 60_000;
/** Barometric and GPS altitude wander by a metre or two while standing still. */
const CLIMB_THRESHOLD_CM = 200;

const radians = (degrees: number) => (degrees * Math.PI) / 180;

export const haversineM = (a: { lat: number; lon: number }, b: { lat: number; lon: number }): number => {
  const dLat = radians(b.lat - a.lat);
  const dLon = radians(b.lon - a.lon);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(radians(a.lat)) * Math.cos(radians(b.lat)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
};

export const distanceM = (segments: readonly Segment[]): number => {
  let total = 0;
  for (const segment of segments) {
    for (let i = 1; i < segment.length; i++) total += haversineM(segment[i - 1]!, segment[i]!);
  }
  return total;
};

/**
 * Sum of the intervals between consecutive points of a segment that last under 5 minutes and average at least
 * 0.5 m/s. Null unless every point has a time: a track with gaps in its timestamps cannot be paired up reliably.
 */
export const movingDurationS = (segments: readonly Segment[]): number | null => {
  let movingMs = 0;
  for (const segment of segments) {
    for (let i = 1; i < segment.length; i++) {
      const from = segment[i - 1]!;
      const to = segment[i]!;
      if (from.timeMs === null || to.timeMs === null) return null;
      const elapsedMs = to.timeMs - from.timeMs;
      if (elapsedMs <= 0 || elapsedMs >= MAX_MOVING_GAP_MS) continue;
      if (haversineM(from, to) / (elapsedMs / 1000) >= MOVING_SPEED_MPS) movingMs += elapsedMs;
    }
  }
  return movingMs / 1000;
};

/**
 * Hysteresis: a climb counts only once the elevation has risen more than 2 m above the lowest point since the last
 * descent, and from then on every further metre up counts until it has fallen more than 2 m below the top; so a
 * ±1 m jitter never adds anything, and a real climb counts in full from its foot. Whole centimetres, so a jitter of
 * exactly 2 m read from decimal text does not round its way over the threshold.
 */
export const elevationGainM = (elevations: readonly number[]): number => {
  const first = elevations[0];
  if (first === undefined) return 0;
  let gainCm = 0;
  let anchorCm = Math.round(first * 100);
  let climbing = false;
  for (const elevation of elevations) {
    const cm = Math.round(elevation * 100);
    const rise = cm - anchorCm;
    if (climbing ? rise > 0 : rise > CLIMB_THRESHOLD_CM) {
      gainCm += rise;
      anchorCm = cm;
      climbing = true;
    } else if (climbing ? -rise > CLIMB_THRESHOLD_CM : rise < 0) {
      anchorCm = cm;
      climbing = false;
    }
  }
  return gainCm / 100;
};

/** Earliest and latest time, whatever their order in the file (clock corrections can reorder points). */
export const timeSpan = (timesMs: Iterable<number | null>): { startMs: number; durationS: number } | null => {
  let first: number | null = null;
  let last: number | null = null;
  for (const time of timesMs) {
    if (time === null) continue;
    if (first === null || time < first) first = time;
    if (last === null || time > last) last = time;
  }
  return first === null || last === null ? null : { startMs: first, durationS: (last - first) / 1000 };
};

export interface TrackMetrics {
  startedAt: number | null;
  durationS: number | null;
  movingDurationS: number | null;
  distanceM: number;
  elevationGainM: number | null;
}

export const trackMetrics = (segments: readonly Segment[]): TrackMetrics => {
  const samples = segments.flat();
  const span = timeSpan(samples.map((sample) => sample.timeMs));
  const elevations = samples.flatMap((sample) => (sample.ele === null ? [] : [sample.ele]));
  return {
    startedAt: span?.startMs ?? null,
    durationS: span?.durationS ?? null,
    movingDurationS: span === null ? null : movingDurationS(segments),
    distanceM: distanceM(segments),
    elevationGainM: elevations.length > 0 ? elevationGainM(elevations) : null,
  };
};
