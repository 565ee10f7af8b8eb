// GET /api/workouts/:id/route: the track an imported file drew and its kilometre splits, through the gateway,
// kept with its workout when the file comes again and gone with it when it is deleted.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { WorkoutRoute } from "@fit/contracts";
import { makeGpx, makeTcx, straightTrack } from "../packages/activity-files/test/support/activity-files.ts";
import { client } from "./support/http.ts";
import { startSystem, type System } from "./support/system.ts";

let system: System;

beforeAll(async () => {
  system = await startSystem({ databaseUrl: inject("databaseUrl"), natsUrl: inject("natsUrl") });
});
afterAll(() => system?.stop());

// 2.5 km north at 10 m every 3 s: 5:00 a kilometre.
const run = () => straightTrack({ start: new Date("2026-11-18T07:00:00Z"), points: 251, stepM: 10, stepS: 3 });

describe("a workout's route", () => {
  it("is the imported file's track with its splits, the same after a re-import, and gone with the workout", async () => {
    const api = client(system.url, (await system.account()).key);
    const gpx = makeGpx(run(), { name: "River loop" });
    const imported = await api.post("/api/workouts/import", gpx, { "content-type": "application/gpx+xml" });
    expect(imported.status).toBe(200);
    const { id } = imported.body.workout as { id: string };

    const response = await api.get(`/api/workouts/${id}/route`);
    expect(response.status).toBe(200);
    const route = WorkoutRoute.parse(response.body);
    expect(route.splits).toEqual([
      { km: 1, distanceM: 1000, durationS: 300 },
      { km: 2, distanceM: 1000, durationS: 300 },
      { km: 3, distanceM: 500, durationS: 150 },
    ]);
    expect(route.segments).toHaveLength(1);
    expect(route.segments[0]).toHaveLength(251);
    expect(route.segments[0]![0]).toEqual([52.52, 13.405]);

    const again = await api.post("/api/workouts/import", gpx, { "content-type": "application/gpx+xml" });
    expect(again.body).toMatchObject({ created: false, workout: { id } });
    expect((await api.get(`/api/workouts/${id}/route`)).body).toEqual(response.body);

    expect((await api.delete(`/api/workouts/${id}`)).status).toBe(200);
    expect((await api.get(`/api/workouts/${id}/route`)).status).toBe(404);
  });

  it("is empty for a workout without a positioned track, and another account's is not found", async () => {
    const owner = client(system.url, (await system.account()).key);
    const described = await owner.post("/api/workouts/describe", { text: "yoga for 45 minutes", date: "2026-11-20" });
    expect((await owner.get(`/api/workouts/${described.body.id}/route`)).body).toEqual({ segments: [], splits: [] });

    const tcx = makeTcx(run(), { sport: "Running" });
    const { id } = (await owner.post("/api/workouts/import", tcx, { "content-type": "application/vnd.garmin.tcx+xml" })).body.workout as { id: string };
    expect((await owner.get(`/api/workouts/${id}/route`)).body.splits).toHaveLength(3);
    const stranger = client(system.url, (await system.account()).key);
    expect((await stranger.get(`/api/workouts/${id}/route`)).status).toBe(404);
  });
});
