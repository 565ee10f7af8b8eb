import { Decoder, Stream, type FitMessages, type RecordMesg, type SessionMesg } from "@garmin/fitsdk";
import { activityTypeFromFitSport } from "./activity-type.ts";
import { ActivityFileError, type ImportedActivity } from "./imported-activity.ts";
import { maxOf, sensorSummary, sumOf, weightedMean } from "./stats.ts";
import { distanceM, elevationGainM, movingDurationS, timeSpan, type TrackSample } from "./track-metrics.ts";

/** FIT positions are semicircles: 2^31 of them make 180°. */
const DEGREES_PER_SEMICIRCLE = 180 / 2 ** 31;

type ActivityTotals = Omit<ImportedActivity, "format" | "activityType" | "name" | "startedAt" | "durationS"> & {
  startedAt: number | null;
  durationS: number | null;
};

const timeMs = (value: unknown): number | null => (value instanceof Date ? value.getTime() : null);

const decode = (bytes: Uint8Array): FitMessages => {
  const decoder = new Decoder(Stream.fromBuffer(bytes));
  if (!decoder.isFIT() || !decoder.checkIntegrity()) {
    throw new ActivityFileError("the FIT file is damaged: its size or checksum does not match its contents");
  }
  const { messages, errors } = decoder.read();
  if (errors.length > 0) throw new ActivityFileError("the FIT file could not be decoded");
  return messages;
};

/** What the device summed up itself; several sessions (a multisport file) add up, averages weighted by timer time. */
const sessionTotals = (sessions: readonly SessionMesg[]): ActivityTotals => {
  const weighted = (value: (session: SessionMesg) => number | undefined) =>
    weightedMean(sessions.map((session) => ({ value: value(session), weight: session.totalTimerTime })));
  return {
    startedAt: timeSpan(sessions.map((session) => timeMs(session.startTime)))?.startMs ?? null,
    durationS: sumOf(sessions.map((session) => session.totalElapsedTime)),
    movingDurationS: sumOf(sessions.map((session) => session.totalTimerTime)),
    distanceM: sumOf(sessions.map((session) => session.totalDistance)),
    elevationGainM: sumOf(sessions.map((session) => session.totalAscent)),
    energyKcal: sumOf(sessions.map((session) => session.totalCalories)),
    avgHr: weighted((session) => session.avgHeartRate),
    maxHr: maxOf(sessions.map((session) => session.maxHeartRate)),
    avgPowerW: weighted((session) => session.avgPower),
    avgCadence: weighted((session) => session.avgCadence),
  };
};

/** Computed from the per-second records, for files without a session or sessions missing a total; energy is never computed. */
const recordTotals = (records: readonly RecordMesg[]): ActivityTotals => {
  const positioned: TrackSample[] = [];
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
    if (record.positionLat !== undefined && record.positionLong !== undefined) {
      const lat = record.positionLat * DEGREES_PER_SEMICIRCLE;
      positioned.push({ lat, lon: record.positionLong * DEGREES_PER_SEMICIRCLE, ele: altitude ?? null, timeMs: time });
    }
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

/** The longest session names the activity (a triathlon's ride leg, say); without sessions, the sport message. */
const activityType = (messages: FitMessages) => {
  const longest = (messages.sessionMesgs ?? []).reduce<SessionMesg | undefined>(
    (best, session) => (best === undefined || (session.totalElapsedTime ?? 0) > (best.totalElapsedTime ?? 0) ? session : best),
    undefined,
  );
  const source = longest ?? messages.sportMesgs?.[0];
  return activityTypeFromFitSport(source?.sport, source?.subSport);
};

/** Session totals first, each missing one filled from the records. FIT carries no activity name. */
export const parseFit = (bytes: Uint8Array): ImportedActivity => {
  const messages = decode(bytes);
  const sessions = messages.sessionMesgs ?? [];
  const records = messages.recordMesgs ?? [];
  if (sessions.length === 0 && records.length === 0) throw new ActivityFileError("the FIT file holds no activity");
  const { startedAt, durationS, ...totals } = fillGaps(sessionTotals(sessions), recordTotals(records));
  if (startedAt === null || durationS === null) throw new ActivityFileError("the file has no timestamps");
  return { format: "fit", activityType: activityType(messages), name: null, startedAt, durationS, ...totals };
};
