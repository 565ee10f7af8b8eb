import { CrcCalculator, Encoder, Profile, type ActivityMesg, type FileIdMesg, type RecordMesg, type SessionMesg } from "@garmin/fitsdk";

export interface TrackPoint {
  lat: number;
  lon: number;
  ele?: number;
  time: Date;
  hr?: number;
  cadence?: number;
  powerW?: number;
}

/** The radius the parser's haversine uses, so a northward step of S metres measures S metres. */
const EARTH_RADIUS_M = 6_371_008.8;
const ORIGIN = { lat: 52.52, lon: 13.405 };

/** A northward line from a fixed origin: N points S metres apart measure (N − 1)·S. */
export const straightTrack = (options: {
  start: Date;
  points: number;
  stepM: number;
  stepS: number;
  startEle?: number;
  climbPerStepM?: number;
  hr?: number;
}): TrackPoint[] =>
  Array.from({ length: options.points }, (_, i) => ({
    lat: ORIGIN.lat + ((i * options.stepM) / EARTH_RADIUS_M) * (180 / Math.PI),
    lon: ORIGIN.lon,
    ele: options.startEle === undefined ? undefined : options.startEle + i * (options.climbPerStepM ?? 0),
    time: new Date(options.start.getTime() + i * options.stepS * 1000),
    hr: options.hr,
  }));

/** Stands still after point `at` for `pauseS` seconds, recording every `stepS` seconds, then goes on as before. */
export const withPause = (track: readonly TrackPoint[], options: { at: number; pauseS: number; stepS: number }): TrackPoint[] => {
  const stop = track[options.at]!;
  const standing = Array.from({ length: Math.floor(options.pauseS / options.stepS) }, (_, i) => ({
    ...stop,
    time: new Date(stop.time.getTime() + (i + 1) * options.stepS * 1000),
  }));
  const resumed = track.slice(options.at + 1).map((point) => ({ ...point, time: new Date(point.time.getTime() + options.pauseS * 1000) }));
  return [...track.slice(0, options.at + 1), ...standing, ...resumed];
};

const escapeXml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const optional = (value: number | string | undefined, render: (value: string) => string) =>
  value === undefined ? "" : render(String(value));

/** Heart rate and cadence in Garmin's TrackPointExtension, power as the bare <power> element Strava writes. */
const gpxExtensions = (p: TrackPoint) => {
  const trackPointExtension =
    optional(p.hr, (hr) => `<gpxtpx:hr>${hr}</gpxtpx:hr>`) + optional(p.cadence, (cadence) => `<gpxtpx:cad>${cadence}</gpxtpx:cad>`);
  const content =
    (trackPointExtension && `<gpxtpx:TrackPointExtension>${trackPointExtension}</gpxtpx:TrackPointExtension>`) +
    optional(p.powerW, (power) => `<power>${power}</power>`);
  return content && `<extensions>${content}</extensions>`;
};

export const makeGpx = (points: readonly TrackPoint[], options: { name?: string; type?: string } = {}): string => {
  const trackpoints = points.map(
    (p) =>
      `<trkpt lat="${p.lat.toFixed(8)}" lon="${p.lon.toFixed(8)}">` +
      optional(p.ele, (ele) => `<ele>${ele}</ele>`) +
      `<time>${p.time.toISOString()}</time>` +
      gpxExtensions(p) +
      `</trkpt>`,
  );
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<gpx version="1.1" creator="workouts tests" xmlns="http://www.topografix.com/GPX/1/1" xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1">`,
    `<trk>${optional(options.name, (name) => `<name>${escapeXml(name)}</name>`)}${optional(options.type, (type) => `<type>${escapeXml(type)}</type>`)}<trkseg>`,
    ...trackpoints,
    `</trkseg></trk></gpx>`,
  ].join("\n");
};

/**
 * One lap holding the whole track. TotalTimeSeconds is the span of the points; DistanceMeters is written only when
 * given, as a device with a foot pod or wheel sensor states it, so by default the parser has to measure the track.
 */
export const makeTcx = (
  points: readonly TrackPoint[],
  options: { sport?: "Running" | "Biking" | "Other"; calories?: number; distanceM?: number } = {},
): string => {
  const first = points[0]!;
  const totalTimeS = (points.at(-1)!.time.getTime() - first.time.getTime()) / 1000;
  const trackpoints = points.map(
    (p) =>
      `<Trackpoint><Time>${p.time.toISOString()}</Time>` +
      `<Position><LatitudeDegrees>${p.lat.toFixed(8)}</LatitudeDegrees><LongitudeDegrees>${p.lon.toFixed(8)}</LongitudeDegrees></Position>` +
      optional(p.ele, (ele) => `<AltitudeMeters>${ele}</AltitudeMeters>`) +
      optional(p.hr, (hr) => `<HeartRateBpm><Value>${hr}</Value></HeartRateBpm>`) +
      optional(p.cadence, (cadence) => `<Cadence>${cadence}</Cadence>`) +
      optional(p.powerW, (power) => `<Extensions><ns3:TPX><ns3:Watts>${power}</ns3:Watts></ns3:TPX></Extensions>`) +
      `</Trackpoint>`,
  );
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2" xmlns:ns3="http://www.garmin.com/xmlschemas/ActivityExtension/v2">`,
    `<Activities><Activity Sport="${options.sport ?? "Running"}"><Id>${first.time.toISOString()}</Id>`,
    `<Lap StartTime="${first.time.toISOString()}"><TotalTimeSeconds>${totalTimeS}</TotalTimeSeconds>`,
    optional(options.distanceM, (distance) => `<DistanceMeters>${distance}</DistanceMeters>`),
    optional(options.calories, (calories) => `<Calories>${calories}</Calories>`),
    `<Intensity>Active</Intensity><TriggerMethod>Manual</TriggerMethod><Track>`,
    ...trackpoints,
    `</Track></Lap></Activity></Activities></TrainingCenterDatabase>`,
  ].join("\n");
};

const SEMICIRCLES_PER_DEGREE = 2 ** 31 / 180;

/** A session's totals, as a device sums them up; sport and sub-sport are FIT profile names ("running", "training" + "yoga"). */
export interface FitSession {
  sport: string;
  subSport?: string;
  start: Date;
  elapsedS: number;
  timerS: number;
  distanceM: number;
  ascentM?: number;
  calories?: number;
  avgHr?: number;
  maxHr?: number;
}

/** file_id, a record per point, the sessions the totals go in (one per sport of a multisport file), and the activity. */
const encodeActivity = (start: Date, points: readonly TrackPoint[], sessions: readonly FitSession[]): Uint8Array => {
  const encoder = new Encoder();
  const fileId: FileIdMesg = { type: "activity", manufacturer: "development", product: 1, serialNumber: 1, timeCreated: start };
  encoder.onMesg(Profile.MesgNum.FILE_ID!, fileId);
  for (const point of points) {
    const record: RecordMesg = {
      timestamp: point.time,
      positionLat: Math.round(point.lat * SEMICIRCLES_PER_DEGREE),
      positionLong: Math.round(point.lon * SEMICIRCLES_PER_DEGREE),
      altitude: point.ele,
      heartRate: point.hr,
      cadence: point.cadence,
      power: point.powerW,
    };
    encoder.onMesg(Profile.MesgNum.RECORD!, record);
  }
  const endOf = (session: FitSession) => new Date(session.start.getTime() + session.elapsedS * 1000);
  for (const options of sessions) {
    const session: SessionMesg = {
      timestamp: endOf(options),
      startTime: options.start,
      sport: options.sport as SessionMesg["sport"],
      subSport: (options.subSport ?? "generic") as SessionMesg["subSport"],
      totalElapsedTime: options.elapsedS,
      totalTimerTime: options.timerS,
      totalDistance: options.distanceM,
      totalAscent: options.ascentM,
      totalCalories: options.calories,
      avgHeartRate: options.avgHr,
      maxHeartRate: options.maxHr,
    };
    encoder.onMesg(Profile.MesgNum.SESSION!, session);
  }
  const end = sessions.at(-1) ? endOf(sessions.at(-1)!) : (points.at(-1)?.time ?? start);
  const totalTimerTime = sessions.reduce((sum, session) => sum + session.timerS, 0);
  const activity: ActivityMesg = { timestamp: end, numSessions: sessions.length, type: "manual", totalTimerTime };
  encoder.onMesg(Profile.MesgNum.ACTIVITY!, activity);
  return encoder.close();
};

/** One session holding the whole activity, or (`withoutSession`) only the records. */
export const makeFit = (options: FitSession & { points?: readonly TrackPoint[]; withoutSession?: boolean }): Uint8Array =>
  encodeActivity(options.start, options.points ?? [], options.withoutSession ? [] : [options]);

/**
 * A multisport activity as a Garmin multisport watch records it: one stream of records across every leg, a session
 * per leg (transitions included, as sport "transition"), in order.
 */
const makeMultisportFit = (legs: readonly (FitSession & { points: readonly TrackPoint[] })[]): Uint8Array =>
  encodeActivity(legs[0]!.start, legs.flatMap((leg) => leg.points), legs);

/**
 * A FIT file written byte by byte: one definition of `global` with a single field of `fieldBytes` bytes, then
 * `count` data messages of it, with a correct header and CRC, so only what it holds can get it refused.
 */
export const makeFitOfMessages = ({ global, count, fieldBytes }: { global: number; count: number; fieldBytes: number }): Uint8Array => {
  // Record header 0x40 (definition, local type 0), reserved, little-endian, global number, one field: #253 (timestamp) or #0.
  const definition = [0x40, 0, 0, global & 0xff, global >> 8, 1, global === Profile.MesgNum.RECORD ? 253 : 0, fieldBytes, fieldBytes === 4 ? 0x86 : 0x0d];
  const dataSize = definition.length + count * (1 + fieldBytes);
  const bytes = new Uint8Array(14 + dataSize + 2);
  const view = new DataView(bytes.buffer);
  bytes.set([14, 0x20], 0);
  view.setUint16(2, 2132, true);
  view.setUint32(4, dataSize, true);
  bytes.set([0x2e, 0x46, 0x49, 0x54], 8);
  bytes.set(definition, 14);
  for (let i = 0, at = 14 + definition.length; i < count; i++, at += 1 + fieldBytes) {
    bytes[at] = 0x00;
    if (fieldBytes === 4) view.setUint32(at + 1, 1_000_000_000 + i, true);
  }
  view.setUint16(14 + dataSize, CrcCalculator.calculateCRC(bytes, 0, 14 + dataSize), true);
  return bytes;
};

/**
 * An Ironman as one multisport file: 3.8 km swim, transition, 180 km ride, transition, 42.2 km run, each leg
 * recorded every 60 s (a different number of points per leg, so a leg's track tells which records it got) and
 * summed up in its own session. Legs follow one another without a gap.
 */
export const ironman = (start: Date) => {
  const plan = [
    { sport: "swimming", subSport: "openWater", elapsedS: 4200, distanceM: 3800, calories: 900, avgHr: 135, maxHr: 150 },
    { sport: "transition", subSport: "generic", elapsedS: 300, distanceM: 400, calories: 40, avgHr: 140, maxHr: 145 },
    { sport: "cycling", subSport: "road", elapsedS: 19_800, distanceM: 180_000, calories: 4300, avgHr: 138, maxHr: 160 },
    { sport: "transition", subSport: "generic", elapsedS: 240, distanceM: 300, calories: 30, avgHr: 142, maxHr: 148 },
    { sport: "running", subSport: "generic", elapsedS: 14_400, distanceM: 42_195, calories: 3100, avgHr: 145, maxHr: 170 },
  ];
  let at = start.getTime();
  const legs = plan.map((leg) => {
    const legStart = new Date(at);
    at += leg.elapsedS * 1000;
    const points = Math.floor(leg.elapsedS / 60);
    return {
      ...leg,
      start: legStart,
      timerS: leg.elapsedS,
      points: straightTrack({ start: legStart, points, stepM: leg.distanceM / points, stepS: 60, hr: leg.avgHr }),
    };
  });
  return { legs, bytes: makeMultisportFit(legs) };
};
