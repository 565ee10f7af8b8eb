import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { parseActivityFile } from "@fit/activity-files";
import { ironman, makeFit, makeGpx, straightTrack } from "../../../../packages/activity-files/test/support/activity-files.ts";
import { readRecording, recordingKey, workoutRowsOf, type ActivitySummary } from "../../src/domain/activity-workouts.ts";
import { rowIdOf } from "../../src/domain/row-id.ts";

const IMPORT = "6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f";
const idOf = (key: string) => rowIdOf(IMPORT, key);

// 5 km north at 10 m every 3 s: 25 minutes, with a heart rate and no energy.
const run = () => straightTrack({ start: new Date("2021-10-03T07:12:45Z"), points: 501, stepM: 10, stepS: 3 }).map((point) => ({ ...point, hr: 150 }));

const summary = (fields: Partial<ActivitySummary> = {}): ActivitySummary => ({
  activityType: "run", name: "Morning Run", description: "Easy pace", startedAt: Date.UTC(2021, 9, 3, 7, 12, 45), durationS: 1500,
  movingDurationS: 1480, distanceM: 5010, elevationGainM: null, energyKcal: 410, avgHr: 149, maxHr: 171, ...fields,
});

describe("an archive's recording", () => {
  it("reads a gzipped recording as the file inside it, and refuses what is not gzip, too large unpacked, or no activity", () => {
    const gpx = Buffer.from(makeGpx(run()));
    expect(readRecording(gzipSync(gpx), true)).toEqual({ activities: parseActivityFile(gpx) });
    expect(readRecording(gpx, false)).toEqual({ activities: parseActivityFile(gpx) });
    expect(readRecording(gpx, true)).toEqual({ refused: "the recording is not gzip" });
    expect(readRecording(gzipSync(Buffer.alloc(11 * 1024 * 1024, 0x20)), true)).toEqual({ refused: "the recording is larger than 10 MiB unpacked" });
    expect(readRecording(Buffer.from("name,value\n"), false)).toMatchObject({ refused: expect.any(String) });
  });

  it("keys a recording by its content", () => {
    const fit = makeFit({ sport: "running", start: new Date("2021-10-03T07:00:00Z"), elapsedS: 1800, timerS: 1800, distanceM: 5000 });
    expect(recordingKey(fit)).toBe(recordingKey(Uint8Array.from(fit)));
    expect(recordingKey(fit)).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});

describe("an archive's activity as workout rows", () => {
  it("takes the name, description and type from the archive's list, the figures from the recording, and fills its gaps from the list", () => {
    const recorded = parseActivityFile(Buffer.from(makeGpx(run(), { type: "9" })));
    const outcome = workoutRowsOf({ recorded, summary: summary({ activityType: "walk" }), source: "activity_app", externalId: "strava:4711", idOf });
    expect(outcome).toEqual({
      rows: [{
        id: idOf("strava:4711"), externalId: "strava:4711", source: "activity_app", activityType: "walk", name: "Morning Run", description: "Easy pace",
        startedAt: Date.UTC(2021, 9, 3, 7, 12, 45), durationS: 1500, movingDurationS: 1500, distanceM: recorded[0]!.distanceM, elevationGainM: null,
        energyKcal: 410, avgHr: 150, maxHr: 150, avgPowerW: null, avgCadence: null, route: recorded[0]!.route, eventId: null,
      }],
    });
  });

  it("keeps the recording's type where the list has no word for it, and the recording's name without a list", () => {
    const recorded = parseActivityFile(Buffer.from(makeGpx(run(), { name: "Track 1", type: "running" })));
    expect(workoutRowsOf({ recorded, summary: summary({ activityType: "other" }), source: "activity_app", externalId: "strava:1", idOf }))
      .toMatchObject({ rows: [{ activityType: "run", name: "Morning Run" }] });
    expect(workoutRowsOf({ recorded, summary: null, source: "watch_device", externalId: "sha256:ab", idOf }))
      .toMatchObject({ rows: [{ activityType: "run", name: "Track 1", description: null, energyKcal: null, source: "watch_device" }] });
  });

  it("makes each leg of a multisport recording a row of its own, keyed by its place, all with one event id", () => {
    const recorded = parseActivityFile(ironman(new Date("2021-06-06T07:00:00Z")).bytes);
    const outcome = workoutRowsOf({ recorded, summary: summary({ activityType: "other", name: "Ironman" }), source: "watch_device", externalId: "garmin:9", idOf });
    if (!("rows" in outcome)) throw new Error(outcome.refused);
    expect(outcome.rows.map((row) => [row.externalId, row.id, row.activityType, row.eventId, row.name])).toEqual(
      ["swim", "other", "ride", "other", "run"].map((type, i) => [`garmin:9#${i + 1}`, idOf(`garmin:9#${i + 1}`), type, idOf("garmin:9#event"), "Ironman"]),
    );
  });

  it("makes an activity entered by hand a row of the list's figures alone, and refuses one it cannot store", () => {
    expect(workoutRowsOf({ recorded: [], summary: summary(), source: "activity_app", externalId: "strava:5", idOf })).toEqual({
      rows: [{
        id: idOf("strava:5"), externalId: "strava:5", source: "activity_app", activityType: "run", name: "Morning Run", description: "Easy pace",
        startedAt: Date.UTC(2021, 9, 3, 7, 12, 45), durationS: 1500, movingDurationS: 1480, distanceM: 5010, elevationGainM: null, energyKcal: 410,
        avgHr: 149, maxHr: 171, avgPowerW: null, avgCadence: null, route: null, eventId: null,
      }],
    });
    expect(workoutRowsOf({ recorded: [], summary: summary({ durationS: null }), source: "activity_app", externalId: "strava:6", idOf })).toEqual({ refused: "no recording and no duration" });
    expect(workoutRowsOf({ recorded: [], summary: summary({ avgHr: 400 }), source: "activity_app", externalId: "strava:7", idOf }))
      .toEqual({ refused: "avgHr must be between 20 and 260 bpm" });
  });
});
