import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { Workout } from "@fit/contracts";
import { ironman, makeFit, makeGpx, makeTcx, straightTrack } from "../packages/activity-files/test/support/activity-files.ts";
import { client } from "./support/http.ts";
import { startSystem, type System } from "./support/system.ts";

let system: System;

beforeAll(async () => {
  system = await startSystem({ databaseUrl: inject("databaseUrl"), natsUrl: inject("natsUrl") });
});
afterAll(() => system?.stop());

const row = (overrides: Record<string, unknown> = {}) => ({
  source: "activity_app",
  externalId: `run-${Math.random()}`,
  activityType: "run",
  startedAt: Date.parse("2026-11-18T07:00:00Z"),
  durationS: 1800,
  movingDurationS: 1750,
  distanceM: 5000,
  elevationGainM: 42,
  energyKcal: 350,
  avgHr: 150,
  maxHr: 175,
  avgPowerW: 250,
  avgCadence: 172,
  summary: "Morning 5k",
  description: "Easy run by the river",
  exercises: [{ exercise: "strides", sets: 4, reps: 1, weightLb: null, durationS: 20, distanceM: 100, notes: "fast" }],
  ...overrides,
});

describe("workouts: describe, list, correct, delete", () => {
  it("logs a described workout as the interface's Workout, source manual, unstated metrics null", async () => {
    const api = client(system.url, (await system.account()).key);
    const response = await api.post("/api/workouts/describe", { text: "ran 5k in 27 min this morning, avg hr 152", date: "2026-11-20", tz: 300 });
    expect(response.status).toBe(200);
    const workout = Workout.parse(response.body);
    expect(workout).toMatchObject({ source: "manual", activityType: "run", durationS: 1620, distanceM: 5000, avgHr: 152, maxHr: null, avgPowerW: null, exercises: [] });
    expect(workout.description).toBe("ran 5k in 27 min this morning, avg hr 152");
    // "This morning" is 07:00 local on the given day; UTC-5 sends tz 300, so 12:00 UTC.
    expect(workout.startedAt).toBe(Date.parse("2026-11-20T12:00:00Z"));
    expect(workout.energyKcal).toBeGreaterThan(0);
    expect(workout.energyEstimate).toMatchObject({ source: expect.stringMatching(/^table:met:run/) });
    expect(workout.energyEstimate!.low).toBeLessThanOrEqual(workout.energyKcal!);
    expect(workout.energyEstimate!.high).toBeGreaterThanOrEqual(workout.energyKcal!);
    expect((await api.get(`/api/workouts/${workout.id}`)).body).toEqual(response.body);
  });

  it("keeps a strength breakdown and refuses a description with nothing to log", async () => {
    const api = client(system.url, (await system.account()).key);
    const strength = await api.post("/api/workouts/describe", { text: "bench 3x8 @ 135 lb, squat 3x5 100kg" });
    expect(strength.status).toBe(200);
    expect(strength.body.activityType).toBe("strength_training");
    expect(strength.body.exercises).toEqual([
      expect.objectContaining({ exercise: "bench press", sets: 3, reps: 8, weightLb: 135 }),
      expect.objectContaining({ exercise: "squat", sets: 3, reps: 5, weightLb: 220.5 }),
    ]);
    for (const body of [{ text: "" }, { text: "x".repeat(4001) }, { text: "felt great", tz: 900 }, { text: "run", date: "2026-02-30" }]) {
      const refused = await api.post("/api/workouts/describe", body);
      expect(refused.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(refused.body.error).toEqual(expect.any(String));
    }
    const impossible = await api.post("/api/workouts/describe", { text: "ran 5 km in 2 min" });
    expect(impossible.status).toBe(400);
    expect(impossible.body).toEqual({ error: "the workout cannot be right: 150 km/h is faster than anyone runs", detail: "say how long and how far it really was" });
    expect((await api.get("/api/workouts")).body.items).toHaveLength(1);
  });

  it("round-trips every field of an imported row, lists newest first in pages, filters, corrects and deletes", async () => {
    const api = client(system.url, (await system.account()).key);
    const first = await api.post("/api/workouts/import", row());
    expect(first.status).toBe(200);
    expect(first.body.created).toBe(true);
    const { id, createdAt, energyEstimate, ...fields } = first.body.workout;
    const { externalId: _externalId, ...sent } = row({ externalId: "x" });
    expect({ ...fields, source: "activity_app" }).toEqual({ ...sent, exercises: sent.exercises });
    expect(energyEstimate).toBeNull();
    expect(createdAt).toBeGreaterThan(0);

    for (let day = 10; day < 15; day++) {
      await api.post("/api/workouts/import", row({ activityType: day % 2 ? "ride" : "swim", startedAt: Date.parse(`2026-11-${day}T08:00:00Z`) }));
    }
    const page1 = await api.get("/api/workouts?limit=4");
    expect(page1.body.items.map((w: Workout) => w.startedAt)).toEqual([...page1.body.items.map((w: Workout) => w.startedAt)].sort((a, b) => b - a));
    const page2 = await api.get(`/api/workouts?limit=4&cursor=${page1.body.nextCursor}`);
    expect(page2.body.items).toHaveLength(2);
    expect(page2.body.nextCursor).toBeNull();
    expect((await api.get("/api/workouts?activityType=ride")).body.items).toHaveLength(2);
    const from = Date.parse("2026-11-12T00:00:00Z");
    const to = Date.parse("2026-11-14T00:00:00Z");
    expect((await api.get(`/api/workouts?from=${from}&to=${to}`)).body.items).toHaveLength(2);

    const patched = await api.patch(`/api/workouts/${id}`, { summary: "Tempo run", energyKcal: 400, avgHr: null });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ summary: "Tempo run", energyKcal: 400, avgHr: null, maxHr: 175, energyEstimate: null });
    expect((await api.patch(`/api/workouts/${id}`, { avgHr: 999 })).status).toBe(400);
    expect((await api.patch(`/api/workouts/${id}`, {})).status).toBe(400);
    expect((await api.delete(`/api/workouts/${id}`)).status).toBe(200);
    expect((await api.get(`/api/workouts/${id}`)).status).toBe(404);
  });

  it("answers 404 for another account's workout, for reading, correcting and deleting alike", async () => {
    const owner = client(system.url, (await system.account()).key);
    const other = client(system.url, (await system.account()).key);
    const { id } = (await owner.post("/api/workouts/import", row())).body.workout;
    expect((await other.get(`/api/workouts/${id}`)).status).toBe(404);
    expect((await other.patch(`/api/workouts/${id}`, { summary: "mine" })).status).toBe(404);
    expect((await other.delete(`/api/workouts/${id}`)).status).toBe(404);
    expect((await other.get("/api/workouts")).body.items).toEqual([]);
    expect((await owner.get(`/api/workouts/${id}`)).body.summary).toBe("Morning 5k");
  });
});

describe("workouts: import", () => {
  const start = new Date("2026-11-17T06:30:00Z");
  const track = straightTrack({ start, points: 601, stepM: 10, stepS: 3, startEle: 100, climbPerStepM: 0.1, hr: 150 });
  // Another run, a day later: the same activity in two files would be one workout.
  const nextDay = track.map((point) => ({ ...point, time: new Date(point.time.getTime() + 86_400_000) }));

  it("computes distance, time, climb and heart rate from GPX, TCX and FIT files, and re-imports without duplicating", async () => {
    const api = client(system.url, (await system.account()).key);
    const files = [
      { type: "application/gpx+xml", bytes: Buffer.from(makeGpx(track, { name: "Dawn run", type: "running" })) },
      { type: "application/vnd.garmin.tcx+xml", bytes: Buffer.from(makeTcx(nextDay, { sport: "Running", calories: 420 })) },
      { type: "application/octet-stream", bytes: Buffer.from(makeFit({ sport: "cycling", start, elapsedS: 3600, timerS: 3500, distanceM: 30_000, ascentM: 250, calories: 800, avgHr: 140, maxHr: 170 })) },
    ];
    const ids = [];
    for (const { type, bytes } of files) {
      const response = await api.post("/api/workouts/import", bytes, { "content-type": type });
      expect(response.status, type).toBe(200);
      expect(response.body.created).toBe(true);
      ids.push(response.body.workout.id);
    }
    const [gpx, tcx, fit] = await Promise.all(ids.map(async (id) => (await api.get(`/api/workouts/${id}`)).body as Workout));
    expect(gpx).toMatchObject({ source: "watch_device", activityType: "run", summary: "Dawn run", durationS: 1800, avgHr: 150, startedAt: start.getTime() });
    expect(gpx!.distanceM).toBeCloseTo(6000, -1);
    expect(gpx!.elevationGainM).toBeCloseTo(60, -1);
    expect(tcx).toMatchObject({ activityType: "run", energyKcal: 420 });
    expect(fit).toMatchObject({ activityType: "ride", durationS: 3600, movingDurationS: 3500, distanceM: 30_000, elevationGainM: 250, energyKcal: 800, avgHr: 140, maxHr: 170 });

    const again = await api.post("/api/workouts/import", files[0]!.bytes, { "content-type": files[0]!.type });
    expect(again.body).toMatchObject({ created: false, workout: { id: gpx!.id } });
    const rowId = `sync-${Math.random()}`;
    const firstRow = await api.post("/api/workouts/import", row({ externalId: rowId }));
    const secondRow = await api.post("/api/workouts/import", row({ externalId: rowId, durationS: 1900 }));
    expect(secondRow.body).toMatchObject({ created: false, workout: { id: firstRow.body.workout.id, durationS: 1900 } });
    expect((await api.get("/api/workouts")).body.items).toHaveLength(4);
  });

  it("reads a file of nearly 10 MiB off the request thread: the service answers other requests meanwhile", async () => {
    const api = client(system.url, (await system.account()).key);
    const long = straightTrack({ start, points: 46_000, stepM: 5, stepS: 1, startEle: 100, climbPerStepM: 0.01, hr: 140 });
    const bytes = Buffer.from(makeGpx(long, { name: "Long ride", type: "cycling" }));
    expect(bytes.length).toBeGreaterThan(8 * 1024 * 1024);
    expect(bytes.length).toBeLessThan(10 * 1024 * 1024);

    let uploading = true;
    const startedAt = performance.now();
    const upload = api.post("/api/workouts/import", bytes, { "content-type": "application/gpx+xml" }).finally(() => (uploading = false));
    const waits: number[] = [];
    while (uploading) {
      const sent = performance.now();
      expect((await api.get("/api/workouts?limit=1")).status).toBe(200);
      waits.push(performance.now() - sent);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    const imported = await upload;
    const uploadMs = performance.now() - startedAt;
    expect(imported.status).toBe(200);
    expect(imported.body.workout).toMatchObject({ activityType: "ride", durationS: 45_999 });
    // Reading the file took a while (several reads went by), and none of them waited for it: read on the request
    // thread, one read would wait out most of the upload. A share of the upload, not a fixed time, so a loaded
    // machine (everything slower alike) does not decide.
    expect(waits.length).toBeGreaterThan(3);
    expect(Math.max(...waits)).toBeLessThan(uploadMs / 3);
  });

  it("refuses what is not an activity file with 400, and a file over 10 MiB with 413, storing nothing", async () => {
    const api = client(system.url, (await system.account()).key);
    const garbage = await api.post("/api/workouts/import", Buffer.from("hello, not a file"), { "content-type": "application/octet-stream" });
    expect(garbage.status).toBe(400);
    expect(garbage.body.error).toMatch(/not a GPX, TCX or FIT file/);
    const bomb = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">]><gpx>&lol;</gpx>`;
    expect((await api.post("/api/workouts/import", Buffer.from(bomb), { "content-type": "application/gpx+xml" })).status).toBe(400);
    const huge = await api.post("/api/workouts/import", Buffer.alloc(10 * 1024 * 1024 + 1, 0x20), { "content-type": "application/gpx+xml" });
    expect(huge.status).toBe(413);
    expect(huge.body).toEqual({ error: "request body is too large" });
    expect((await api.post("/api/workouts/import", Buffer.from("x"), { "content-type": "image/png" })).status).toBe(415);
    expect((await api.post("/api/workouts/import", row({ source: "manual" }))).status).toBe(400);
    expect((await api.get("/api/workouts")).body.items).toEqual([]);
  });
});

describe("workouts: what single-file imports used to get wrong", () => {
  const post = (api: ReturnType<typeof client>, bytes: Uint8Array | string, type = "application/octet-stream") =>
    api.post("/api/workouts/import", Buffer.from(bytes), { "content-type": type });

  it("makes each leg of a multisport file its own workout, linked as one event, and lists them all", async () => {
    const api = client(system.url, (await system.account()).key);
    const start = new Date("2026-07-05T05:30:00Z");
    const { legs, bytes } = ironman(start);
    const response = await post(api, bytes);
    expect(response.status).toBe(200);
    const outcomes = response.body.legs as { created: boolean; workout: Workout }[];
    expect(outcomes.map(({ created, workout }) => [created, workout.activityType, workout.summary])).toEqual([
      [true, "swim", "Swim 3.80 km"], [true, "other", "Transition 1"], [true, "ride", "Ride 180.0 km"], [true, "other", "Transition 2"], [true, "run", "Run 42.2 km"],
    ]);
    expect(response.body.workout).toEqual(outcomes[0]!.workout);
    const eventId = outcomes[0]!.workout.eventId;
    expect(eventId).toEqual(expect.any(String));
    for (const [i, { workout }] of outcomes.entries()) {
      const leg = legs[i]!;
      expect(workout).toMatchObject({
        eventId, startedAt: leg.start.getTime(), durationS: leg.elapsedS, distanceM: leg.distanceM, energyKcal: leg.calories,
        avgHr: leg.avgHr, maxHr: leg.maxHr, energyEstimate: null,
      });
      const route = (await api.get(`/api/workouts/${workout.id}/route`)).body;
      expect(route.segments[0]).toHaveLength(Math.min(leg.points.length, 1000));
    }
    expect((await api.get("/api/workouts")).body.items).toHaveLength(5);

    const again = await post(api, bytes);
    expect(again.body.legs.map((leg: { created: boolean; workout: Workout }) => [leg.created, leg.workout.id, leg.workout.eventId])).toEqual(
      outcomes.map(({ workout }) => [false, workout.id, eventId]),
    );
    expect((await api.get("/api/workouts")).body.items).toHaveLength(5);
  });

  it("keeps one workout for one run uploaded as .gpx, .tcx and .fit: a richer file fills it in, a poorer one is skipped", async () => {
    const api = client(system.url, (await system.account()).key);
    const start = new Date("2026-08-02T06:00:00Z");
    // 1 800 s at 3 m/s with heart rate; the watch's own recording has cadence and power too.
    const track = straightTrack({ start, points: 601, stepM: 9, stepS: 3, startEle: 20, climbPerStepM: 0.05, hr: 148 });
    const watch = track.map((point) => ({ ...point, cadence: 172, powerW: 260 }));
    const gpx = await post(api, makeGpx(track, { name: "River run", type: "running" }), "application/gpx+xml");
    expect(gpx.body).toMatchObject({ created: true, workout: { summary: "River run", avgCadence: null } });
    expect(gpx.body.workout.energyEstimate).not.toBeNull();
    const id = gpx.body.workout.id;

    // The same run cropped by an exporter (starting 60 s late) is still the same run; with its device's calories it is richer.
    const tcx = await post(api, makeTcx(track.slice(20), { sport: "Running", calories: 455 }), "application/vnd.garmin.tcx+xml");
    expect(tcx.body).toMatchObject({ created: false, duplicateOf: id, action: "updated", workout: { id, energyKcal: 455, energyEstimate: null, summary: "River run" } });

    const fit = await post(api, makeFit({ sport: "running", start, elapsedS: 1800, timerS: 1790, distanceM: 5412, calories: 470, avgHr: 149, maxHr: 171, points: watch }));
    expect(fit.body).toMatchObject({
      created: false, duplicateOf: id, action: "updated",
      workout: { id, durationS: 1800, movingDurationS: 1790, distanceM: 5412, energyKcal: 470, avgHr: 149, maxHr: 171, avgCadence: 172, avgPowerW: 260 },
    });

    // The GPX again, and a TCX stating no calories: poorer, so nothing changes, and the device's figure is never replaced.
    const gpxAgain = await post(api, makeGpx(track, { name: "River run", type: "9" }), "application/gpx+xml");
    expect(gpxAgain.body).toMatchObject({ created: false, duplicateOf: id, action: "skipped", workout: fit.body.workout });
    const noCalories = await post(api, makeTcx(track, { sport: "Running", calories: 0 }), "application/vnd.garmin.tcx+xml");
    expect(noCalories.body).toMatchObject({ duplicateOf: id, action: "skipped", workout: { energyKcal: 470, energyEstimate: null } });
    expect((await api.get("/api/workouts")).body.items.map((workout: Workout) => workout.id)).toEqual([id]);

    // Another run the next morning, and a ride at the same time as the first run, are activities of their own.
    const nextDay = track.map((point) => ({ ...point, time: new Date(point.time.getTime() + 86_400_000) }));
    expect((await post(api, makeGpx(nextDay, { type: "running" }), "application/gpx+xml")).body.created).toBe(true);
    expect((await post(api, makeGpx(track, { type: "cycling" }), "application/gpx+xml")).body.created).toBe(true);
    expect((await api.get("/api/workouts")).body.items).toHaveLength(3);
  });

  it("estimates the energy of a file that states none from the MET table and the person's weight, with its range and source", async () => {
    const api = client(system.url, (await system.account()).key);
    expect((await api.post("/api/weight", { weightKg: 80, ts: Date.parse("2026-09-01T07:00:00Z") })).status).toBe(200);
    // Two hours at 25 km/h: the Compendium's 23–26 km/h band, 10 MET; 10 × 80 kg × 2 h = 1 600 kcal.
    const ride = (day: string) => straightTrack({ start: new Date(`${day}T08:00:00Z`), points: 721, stepM: 625 / 9, stepS: 10 });
    const gpx = await post(api, makeGpx(ride("2026-09-05"), { type: "cycling" }), "application/gpx+xml");
    const tcx = await post(api, makeTcx(ride("2026-09-06"), { sport: "Biking", calories: 0 }), "application/vnd.garmin.tcx+xml");
    for (const { body } of [gpx, tcx]) {
      expect(body.workout).toMatchObject({ activityType: "ride", durationS: 7200, energyKcal: 1600, energyEstimate: { source: "table:met:ride-23-26kmh" } });
      expect(body.workout.energyEstimate.low).toBeLessThan(1600);
      expect(body.workout.energyEstimate.high).toBeGreaterThan(1600);
    }
    const stated = await post(api, makeTcx(ride("2026-09-07"), { sport: "Biking", calories: 1234 }), "application/vnd.garmin.tcx+xml");
    expect(stated.body.workout).toMatchObject({ energyKcal: 1234, energyEstimate: null });
  });
});

describe("the dashboard's week of workouts", () => {
  it("sums the workouts started in the ISO week of the day, and nothing outside it", async () => {
    const api = client(system.url, (await system.account()).key);
    // 2026-11-16 is a Monday; the week runs to Sunday 2026-11-22.
    await api.post("/api/workouts/import", row({ startedAt: Date.parse("2026-11-16T00:30:00Z"), durationS: 1200, distanceM: 4000, energyKcal: 300 }));
    await api.post("/api/workouts/import", row({ startedAt: Date.parse("2026-11-22T20:00:00Z"), durationS: 600, distanceM: null, energyKcal: 100 }));
    await api.post("/api/workouts/import", row({ startedAt: Date.parse("2026-11-15T23:59:00Z"), durationS: 999, distanceM: 999, energyKcal: 999 }));
    const { body } = await api.get("/api/dashboard?date=2026-11-19");
    expect(body.workoutsThisWeek).toEqual({ from: "2026-11-16", to: "2026-11-22", count: 2, durationS: 1800, distanceM: 4000, energyKcal: 400 });
  });
});
