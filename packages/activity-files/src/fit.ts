import type { ActivityType } from "@fit/contracts";
import { Decoder, Stream, type FitMessages, type RecordMesg, type SessionMesg } from "@garmin/fitsdk";
import { activityTypeFromFitSport } from "./activity-type.ts";
import { ActivityFileError, ActivityFileTooLarge, MAX_POINTS, type ImportedActivity } from "./imported-activity.ts";
import { routeOf } from "./route.ts";
import { maxOf, sensorSummary } from "./stats.ts";
import { distanceM, elevationGainM, movingDurationS, timeSpan, type TrackSample } from "./track-metrics.ts";

/** FIT positions are semicircles: 2^31 of them make 180°. */
const DEGREES_PER_SEMICIRCLE = 180 / 2 ** 31;

type ActivityTotals = Omit<ImportedActivity, "format" | "activityType" | "name" | "startedAt" | "durationS" | "route"> & {
  startedAt: number | null;
  durationS: number | null;
};

const timeMs = (value: unknown): number | null => (value instanceof Date ? value.getTime() : null);

/**
 * Data messages one FIT file may hold. The SDK keeps every message it decodes as an object with a property per
 * field; a day's recording at one record a second, with its laps, events and heart-rate variability, holds under
 * 250 000.
 */
const MAX_FIT_MESSAGES = 400_000;
const RECORD_MESSAGE = 20;
const DAMAGED = "the FIT file is damaged: its size or checksum does not match its contents";

/**
 * Walks the file's record headers and definitions without decoding a field, counting its data messages and
 * records, so that a file of millions of tiny messages is refused before the SDK builds an object for each. A
 * data message of a local type not yet defined, or one running past the data, is a damaged file.
 */
const countMessages = (bytes: Uint8Array) => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let messages = 0;
  let records = 0;
  // Chained FIT files follow one another, each with its header, data and CRC.
  for (let file = 0; file < bytes.length; ) {
    const headerSize = bytes[file]!;
    if (headerSize !== 12 && headerSize !== 14) throw new ActivityFileError(DAMAGED);
    const end = file + headerSize + view.getUint32(file + 4, true);
    if (end + 2 > bytes.length) throw new ActivityFileError(DAMAGED);
    const sizes: ({ bytes: number; global: number } | undefined)[] = [];
    for (let at = file + headerSize; at < end; ) {
      const header = bytes[at++]!;
      if ((header & 0xc0) === 0x40) {
        const bigEndian = bytes[at + 1] === 1;
        const global = bigEndian ? view.getUint16(at + 2) : view.getUint16(at + 2, true);
        const fields = bytes[at + 4]!;
        at += 5;
        let size = 0;
        for (let i = 0; i < fields; i++, at += 3) size += bytes[at + 1] ?? 0;
        if (header & 0x20) {
          const developerFields = bytes[at++] ?? 0;
          for (let i = 0; i < developerFields; i++, at += 3) size += bytes[at + 1] ?? 0;
        }
        sizes[header & 0x0f] = { bytes: size, global };
        continue;
      }
      // A compressed-timestamp header names its local type in bits 5–6, a normal one in bits 0–3.
      const definition = sizes[header & 0x80 ? (header >> 5) & 0x03 : header & 0x0f];
      if (definition === undefined) throw new ActivityFileError(DAMAGED);
      at += definition.bytes;
      if (++messages > MAX_FIT_MESSAGES) throw new ActivityFileTooLarge(`the file is too large to read: more than ${MAX_FIT_MESSAGES} FIT messages`);
      if (definition.global === RECORD_MESSAGE && ++records > MAX_POINTS) {
        throw new ActivityFileTooLarge(`the file is too large to read: more than ${MAX_POINTS} track points`);
      }
    }
    file = end + 2;
  }
};

const decode = (bytes: Uint8Array): FitMessages => {
  countMessages(bytes);
  const decoder = new Decoder(Stream.fromBuffer(bytes));
  if (!decoder.isFIT() || !decoder.checkIntegrity()) throw new ActivityFileError(DAMAGED);
  const { messages, errors } = decoder.read();
  if (errors.length > 0) throw new ActivityFileError("the FIT file could not be decoded");
  return messages;
};

/** What the device summed up itself, when the file has a session. */
const sessionTotals = (session: SessionMesg | undefined): ActivityTotals => ({
  startedAt: timeMs(session?.startTime),
  durationS: session?.totalElapsedTime ?? null,
  movingDurationS: session?.totalTimerTime ?? null,
  distanceM: session?.totalDistance ?? null,
  elevationGainM: session?.totalAscent ?? null,
  energyKcal: session?.totalCalories ?? null,
  avgHr: session?.avgHeartRate ?? null,
  maxHr: session?.maxHeartRate ?? null,
  avgPowerW: session?.avgPower ?? null,
  avgCadence: session?.avgCadence ?? null,
});

/** The records that carry a position, as one segment (FIT marks no breaks in the track). */
const positionedRecords = (records: readonly RecordMesg[]): TrackSample[] =>
  records.flatMap((record) =>
    record.positionLat === undefined || record.positionLong === undefined
      ? []
      : [{
          lat: record.positionLat * DEGREES_PER_SEMICIRCLE,
          lon: record.positionLong * DEGREES_PER_SEMICIRCLE,
          ele: record.enhancedAltitude ?? record.altitude ?? null,
          timeMs: timeMs(record.timestamp),
        }],
  );

/** Computed from the per-second records, for files without a session or sessions missing a total; energy is never computed. */
const recordTotals = (records: readonly RecordMesg[]): ActivityTotals => {
  const positioned = positionedRecords(records);
  const times: (number | null)[] = [];
  const altitudes: number[] = [];
  const distances: (number | undefined)[] = [];
  const readings = { heartRates: [] as number[], cadences: [] as number[], powers: [] as number[] };
  for (const record of records) {
    const time = timeMs(record.timestamp);
    const altitude = record.enhancedAltitude ?? record.altitude;
    times.push(time);
    distances.push(record.distance);
    if (altitude !== undefined) altitudes.push(altitude);
    if (record.heartRate !== undefined) readings.heartRates.push(record.heartRate);
    if (record.cadence !== undefined) readings.cadences.push(record.cadence);
    if (record.power !== undefined) readings.powers.push(record.power);
  }
  const span = timeSpan(times);
  const hasTrack = positioned.length > 1;
  return {
    startedAt: span?.startMs ?? null,
    durationS: span?.durationS ?? null,
    movingDurationS: hasTrack ? movingDurationS([positioned]) : null,
    // The device's own odometer (wheel sensor, foot pod, its GPS filter) beats a re-summed track.
    distanceM: maxOf(distances) ?? (hasTrack ? distanceM([positioned]) : null),
    elevationGainM: altitudes.length > 0 ? elevationGainM(altitudes) : null,
    energyKcal: null,
    ...sensorSummary(readings),
  };
};

const fillGaps = (stated: ActivityTotals, computed: ActivityTotals): ActivityTotals => ({
  startedAt: stated.startedAt ?? computed.startedAt,
  durationS: stated.durationS ?? computed.durationS,
  movingDurationS: stated.movingDurationS ?? computed.movingDurationS,
  distanceM: stated.distanceM ?? computed.distanceM,
  elevationGainM: stated.elevationGainM ?? computed.elevationGainM,
  energyKcal: stated.energyKcal,
  avgHr: stated.avgHr ?? computed.avgHr,
  maxHr: stated.maxHr ?? computed.maxHr,
  avgPowerW: stated.avgPowerW ?? computed.avgPowerW,
  avgCadence: stated.avgCadence ?? computed.avgCadence,
});

/** The session names the activity; without one, the sport message. */
const activityType = (messages: FitMessages) => {
  const source = messages.sessionMesgs?.[0] ?? messages.sportMesgs?.[0];
  return activityTypeFromFitSport(source?.sport, source?.subSport);
};

/** Session totals first, each missing one filled from the records. FIT carries no activity name. */
const activityOf = (session: SessionMesg | undefined, records: readonly RecordMesg[], type: ActivityType, name: string | null): ImportedActivity => {
  const { startedAt, durationS, ...totals } = fillGaps(sessionTotals(session), recordTotals(records));
  if (startedAt === null || durationS === null) throw new ActivityFileError("the file has no timestamps");
  const track = positionedRecords(records);
  return { format: "fit", activityType: type, name, startedAt, durationS, ...totals, route: routeOf(track.length > 1 ? [track] : []) };
};

/**
 * The records a session recorded, by their timestamps: from its start up to its end, which is where the next leg
 * starts; the last session's final record, written at its end, is its own.
 */
const recordsOf = (session: SessionMesg, records: readonly RecordMesg[], isLast: boolean) => {
  const from = timeMs(session.startTime);
  if (from === null || session.totalElapsedTime === undefined) return [];
  const to = from + session.totalElapsedTime * 1000;
  return records.filter((record) => {
    const at = timeMs(record.timestamp);
    return at !== null && at >= from && (at < to || (isLast && at === to));
  });
};

/**
 * A multisport file (a triathlon: swim, transition, bike, transition, run) holds a session per sport, each with
 * its own totals: each becomes an activity of its own, in the file's order; a transition is one too, of type other
 * (docs/decisions/0072-multisport-files-one-workout-per-session.md).
 */
const multisportLegs = (sessions: readonly SessionMesg[], records: readonly RecordMesg[]): ImportedActivity[] => {
  let transitions = 0;
  return sessions.map((session, i) => {
    const transition = session.sport === "transition";
    const name = transition ? `Transition ${++transitions}` : null;
    return activityOf(session, recordsOf(session, records, i === sessions.length - 1), activityTypeFromFitSport(session.sport, session.subSport), name);
  });
};

/** One activity per file, or one per session of a multisport file. */
export const parseFit = (bytes: Uint8Array): ImportedActivity[] => {
  const messages = decode(bytes);
  const sessions = messages.sessionMesgs ?? [];
  const records = messages.recordMesgs ?? [];
  if (sessions.length === 0 && records.length === 0) throw new ActivityFileError("the FIT file holds no activity");
  return sessions.length > 1 ? multisportLegs(sessions, records) : [activityOf(sessions[0], records, activityType(messages), null)];
};
