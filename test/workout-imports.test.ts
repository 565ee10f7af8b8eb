// workouts.workout.import and workouts.workout.remove-imported over the real NATS, asked as the imports service asks
// them (docs/decisions/0077-workout-imports-over-the-bus.md): rows stored once per external id, matched to what is
// logged as a file's activity is, energy estimated where none is stated, each new row's event in the outbox, and
// undo removing only what an import created.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { parseActivityFile } from "@fit/activity-files";
import { Workout, workoutsBus, type RequestOf } from "@fit/contracts";
import { createBus, type Bus } from "@fit/bus";
import { makeGpx, makeTcx, straightTrack } from "../packages/activity-files/test/support/activity-files.ts";
import { client } from "./support/http.ts";
import { startSystem, type System } from "./support/system.ts";

type Row = RequestOf<typeof workoutsBus.importWorkouts>["rows"][number];

const silent = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
let system: System;
let asker: Bus;

beforeAll(async () => {
  system = await startSystem({ databaseUrl: inject("databaseUrl"), natsUrl: inject("natsUrl") });
  asker = await createBus({ natsUrl: inject("natsUrl"), namespace: system.env.NATS_NAMESPACE, name: "workout-imports-test", logger: silent, streams: [] });
});
afterAll(async () => {
  await asker?.close();
  await system?.stop();
});

const importRows = (accountId: string, rows: Row[]) => asker.request(workoutsBus.importWorkouts, { accountId, rows }, { timeoutMs: 30_000 });

/** Two hours at 25 km/h from 08:00 UTC on `day`: 10 MET in the Compendium, 1 600 kcal for 80 kg. */
const ride = (day: string) => straightTrack({ start: new Date(`${day}T08:00:00Z`), points: 721, stepM: 625 / 9, stepS: 10 });

/** A file's activity as an archive reader hands it over: read by the shared package, named by the export's CSV. */
const rowOf = (file: string, fields: Partial<Row> & Pick<Row, "externalId">): Row => ({
  id: randomUUID(), source: "activity_app", description: null, eventId: null, ...parseActivityFile(Buffer.from(file))[0]!, ...fields,
});

const workoutsOf = async (api: ReturnType<typeof client>) => {
  const { body } = await api.get("/api/workouts?limit=200");
  return (body.items as unknown[]).map((item) => Workout.parse(item));
};

describe("workouts.workout.import", () => {
  it("stores each row once under its external id, with its name, description, route and an estimate where no energy is stated", async () => {
    const { key, accountId } = await system.account();
    const api = client(system.url, key);
    expect((await api.post("/api/weight", { weightKg: 80, ts: Date.parse("2026-09-01T07:00:00Z") })).status).toBe(200);
    const estimated = rowOf(makeGpx(ride("2026-09-05")), {
      externalId: "strava:101", name: "Morning Ride", description: "Along the river", activityType: "ride",
    });
    const stated = rowOf(makeTcx(ride("2026-09-06"), { sport: "Biking", calories: 1234 }), { externalId: "strava:102", source: "watch_device" });

    const first = await importRows(accountId, [estimated, stated]);
    expect(first.rows).toEqual([{ id: estimated.id, outcome: "created" }, { id: stated.id, outcome: "created" }]);
    const stored = await workoutsOf(api);
    expect(stored).toHaveLength(2);
    expect(stored.find((w) => w.id === estimated.id)).toMatchObject({
      source: "activity_app", activityType: "ride", summary: "Morning Ride", description: "Along the river", startedAt: Date.parse("2026-09-05T08:00:00Z"),
      durationS: 7200, energyKcal: 1600, energyEstimate: { source: "table:met:ride-23-26kmh" },
    });
    expect(stored.find((w) => w.id === stated.id)).toMatchObject({ source: "watch_device", summary: expect.stringMatching(/^Ride \d+\.\d km$/), energyKcal: 1234, energyEstimate: null });
    const route = await api.get(`/api/workouts/${estimated.id}/route`);
    expect(route.body.splits).toHaveLength(50);
    expect(route.body.segments[0]).toHaveLength(721);

    // The same rows again, and the same activities as another import proposes them: nothing changes.
    const again = await importRows(accountId, [estimated, { ...stated, id: randomUUID(), energyKcal: 1 }]);
    expect(again.rows).toEqual([{ id: estimated.id, outcome: "existing" }, { id: stated.id, outcome: "existing" }]);
    expect(await workoutsOf(api)).toEqual(stored);

    // Each new row's event went through the outbox, and nothing more for the repeats.
    const db = new pg.Client({ connectionString: system.env.DATABASE_URL });
    await db.connect();
    try {
      const { rows } = await db.query<{ subject: string; workout: string }>(
        "SELECT subject, payload->'data'->>'workoutId' AS workout FROM workouts.outbox_event WHERE payload->'data'->>'accountId' = $1 AND subject LIKE 'workouts.workout.%'",
        [accountId],
      );
      expect(rows.map((row) => [row.subject, row.workout]).sort()).toEqual([["workouts.workout.logged", estimated.id], ["workouts.workout.logged", stated.id]].sort());
    } finally {
      await db.end();
    }
  });

  it("matches an activity already logged: the richer recording wins, a device's energy is never replaced by an estimate", async () => {
    const { key, accountId } = await system.account();
    const api = client(system.url, key);
    const track = ride("2026-10-03");
    // The watch's TCX, uploaded by hand: a device's energy, no heart rate.
    const upload = await api.post("/api/workouts/import", makeTcx(track, { sport: "Biking", calories: 900 }), { "content-type": "application/vnd.garmin.tcx+xml" });
    expect(upload.status).toBe(200);
    const logged = upload.body.workout.id as string;

    // The same ride from the export, with heart rate and no energy: richer, so its figures replace the logged ones but the energy.
    const richer = rowOf(makeGpx(track.map((point) => ({ ...point, hr: 140 })), { type: "cycling" }), { externalId: "garmin:7", source: "watch_device" });
    expect(richer.energyKcal).toBeNull();
    // The same ride, a minute later and with nothing but its time: not richer, skipped.
    const poorer: Row = { ...richer, id: randomUUID(), externalId: "apple:7", source: "phone_health", startedAt: richer.startedAt + 60_000, route: null, avgHr: null, maxHr: null, movingDurationS: null, elevationGainM: null };
    const answer = await importRows(accountId, [richer, poorer]);
    expect(answer.rows).toEqual([{ id: logged, outcome: "updated" }, { id: logged, outcome: "skipped" }]);
    const [workout, ...others] = await workoutsOf(api);
    expect(others).toEqual([]);
    expect(workout).toMatchObject({ id: logged, source: "watch_device", avgHr: 140, maxHr: 140, energyKcal: 900, energyEstimate: null });
  });

  it("refuses a batch with a row it cannot store, and stores none of it", async () => {
    const { key, accountId } = await system.account();
    const api = client(system.url, key);
    const good = rowOf(makeGpx(ride("2026-08-01")), { externalId: "strava:1" });
    await expect(importRows(accountId, [good, { ...good, id: randomUUID(), externalId: "strava:2", avgHr: 900 }])).rejects.toMatchObject({ code: "validation" });
    await expect(importRows(accountId, [{ ...good, startedAt: Date.now() + 3 * 86_400_000 }])).rejects.toMatchObject({ code: "validation" });
    await expect(importRows(accountId, Array.from({ length: 11 }, (_, i) => ({ ...good, id: randomUUID(), externalId: `strava:${i}` })))).rejects.toMatchObject({ code: "validation" });
    expect(await workoutsOf(api)).toEqual([]);
  });
});

describe("workouts.workout.remove-imported", () => {
  it("removes the workouts an import created, never one logged or uploaded another way, nor another account's", async () => {
    const { key, accountId } = await system.account();
    const api = client(system.url, key);
    const synced = await api.post("/api/workouts/import", { source: "watch_device", externalId: "own-app:1", activityType: "run", startedAt: Date.parse("2026-07-01T06:00:00Z"), durationS: 1800 });
    const uploaded = await api.post("/api/workouts/import", makeGpx(ride("2026-07-02")), { "content-type": "application/gpx+xml" });
    const imported = [rowOf(makeGpx(ride("2026-07-03")), { externalId: "strava:a" }), rowOf(makeGpx(ride("2026-07-04")), { externalId: "strava:b" })];
    await importRows(accountId, imported);
    const stranger = await system.account();
    const theirs = rowOf(makeGpx(ride("2026-07-05")), { externalId: "strava:c" });
    await importRows(stranger.accountId, [theirs]);

    const ids = [...imported.map((row) => row.id), synced.body.workout.id as string, uploaded.body.workout.id as string, theirs.id];
    expect(await asker.request(workoutsBus.removeImportedWorkouts, { accountId, ids }, { timeoutMs: 30_000 })).toEqual({ removed: 2 });
    expect((await workoutsOf(api)).map((w) => w.id).sort()).toEqual([synced.body.workout.id, uploaded.body.workout.id].sort());
    expect((await workoutsOf(client(system.url, stranger.key))).map((w) => w.id)).toEqual([theirs.id]);
    expect(await asker.request(workoutsBus.removeImportedWorkouts, { accountId, ids }, { timeoutMs: 30_000 })).toEqual({ removed: 0 });
  });
});
