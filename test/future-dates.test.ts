// Nothing is logged in the future (docs/decisions/0064-nothing-logged-in-the-future.md): every route and import
// that creates or edits a weigh-in, measurement, food item or workout refuses a time more than a day ahead of the
// server's clock with a 400 in the envelope, and stores nothing.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { utcDay } from "@fit/contracts";
import { makeFit, makeGpx, makeTcx, straightTrack } from "../packages/activity-files/test/support/activity-files.ts";
import { client } from "./support/http.ts";
import { connectAgent, mcpClient } from "./support/oauth-agent.ts";
import { startSystem, type System } from "./support/system.ts";

const DAY_MS = 86_400_000;
const INGEST_TOKEN = randomBytes(24).toString("base64url");
const AHEAD = "must not be more than a day in the future";
let system: System;

beforeAll(async () => {
  system = await startSystem({ databaseUrl: inject("databaseUrl"), natsUrl: inject("natsUrl"), env: { INGEST_TOKEN } });
});
afterAll(() => system?.stop());

/** Past the day of slack by an hour, and inside it by an hour. */
const tooFar = () => Date.now() + DAY_MS + 3_600_000;
const withinSlack = () => Date.now() + DAY_MS - 3_600_000;

const refused = (answer: { status: number; body: { error?: string } }, message: string) => {
  expect(answer.status, JSON.stringify(answer.body)).toBe(400);
  expect(answer.body).toEqual({ error: expect.stringContaining(message) });
};

describe("a weigh-in or measurement dated ahead", () => {
  it("is refused by POST /api/weight and POST /api/measurements; within a day it is kept", async () => {
    const api = client(system.url, (await system.account()).key);
    refused(await api.post("/api/weight", { weightKg: 80, ts: tooFar() }), `ts ${AHEAD}`);
    refused(await api.post("/api/measurements", { site: "waist", valueCm: 80, ts: tooFar() }), `ts ${AHEAD}`);
    expect((await api.get("/api/weight")).body.items).toEqual([]);
    expect((await api.get("/api/measurements")).body.items).toEqual([]);

    expect((await api.post("/api/weight", { weightKg: 80, ts: withinSlack() })).status).toBe(200);
    expect((await api.post("/api/measurements", { site: "waist", valueCm: 80, ts: withinSlack() })).status).toBe(200);
    expect((await api.get("/api/weight")).body.items).toHaveLength(1);
  });

  it("is refused from a scale (POST /api/ingest/weight)", async () => {
    const { email, key } = await system.account();
    refused(await client(system.url, INGEST_TOKEN).post("/api/ingest/weight", { email, weightKg: 80, ts: tooFar() }), `ts ${AHEAD}`);
    expect((await client(system.url, key).get("/api/weight")).body.items).toEqual([]);
  });

  it("is refused to an agent's tool call, in the tool's error", async () => {
    const agent = await connectAgent(system.url, "weight:read weight:write");
    const mcp = await mcpClient(system.url, agent.tokens.access_token);
    const result = await mcp.callTool({ name: "logWeight", arguments: { weightKg: 80, ts: tooFar() } });
    await mcp.close();
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain(AHEAD);
    expect((await client(system.url, agent.tokens.access_token).get("/api/weight")).body.items).toEqual([]);
  });
});

describe("a food item dated ahead", () => {
  it("is refused when logged, moved, copied or described on a day after the server's UTC tomorrow", async () => {
    const api = client(system.url, (await system.account()).key);
    const [tomorrow, later] = [utcDay(Date.now() + DAY_MS), utcDay(Date.now() + 2 * DAY_MS)];
    refused(await api.post("/api/nutrition/items", { date: later, name: "oats", kcal: 300, proteinG: 10 }), `date ${AHEAD}`);
    refused(await api.post("/api/nutrition/describe", { text: "two eggs", date: later }), `date ${AHEAD}`);
    expect((await api.get(`/api/nutrition/items?date=${later}`)).body).toEqual([]);

    // The latest local today anywhere (UTC+14) is UTC's tomorrow: that day is open.
    const logged = await api.post("/api/nutrition/items", { date: tomorrow, name: "oats", kcal: 300, proteinG: 10 });
    expect(logged.status).toBe(200);
    refused(await api.patch(`/api/nutrition/items/${logged.body.id}`, { date: later }), `date ${AHEAD}`);
    refused(await api.post("/api/nutrition/copy", { from: { date: tomorrow }, to: { date: later } }), `to.date ${AHEAD}`);
    expect((await api.get(`/api/nutrition/items?date=${tomorrow}`)).body).toEqual([expect.objectContaining({ id: logged.body.id })]);
    expect((await api.get(`/api/nutrition/items?date=${later}`)).body, "nothing copied ahead").toEqual([]);
  });
});

describe("a workout starting ahead", () => {
  const row = (startedAt: number) => ({ source: "activity_app", externalId: `ahead-${Math.random()}`, activityType: "run", startedAt, durationS: 1800 });

  it("is refused as a JSON row, and as a GPX, TCX or FIT file, naming its start", async () => {
    const api = client(system.url, (await system.account()).key);
    refused(await api.post("/api/workouts/import", row(tooFar())), `startedAt ${AHEAD}`);
    const start = new Date(tooFar());
    const track = straightTrack({ start, points: 60, stepM: 10, stepS: 5 });
    for (const [type, bytes] of [
      ["application/gpx+xml", makeGpx(track, { type: "running" })],
      ["application/vnd.garmin.tcx+xml", makeTcx(track, { sport: "Running" })],
      ["application/vnd.ant.fit", makeFit({ sport: "running", start, elapsedS: 1800, timerS: 1800, distanceM: 5000 })],
    ] as const) {
      refused(await api.post("/api/workouts/import", Buffer.from(bytes), { "content-type": type }), `the file's start time ${AHEAD}`);
    }
    expect((await api.get("/api/workouts")).body.items).toEqual([]);
  });

  it("is refused when corrected to start ahead, and the workout keeps its start", async () => {
    const api = client(system.url, (await system.account()).key);
    const startedAt = Date.now() - DAY_MS;
    const { workout } = (await api.post("/api/workouts/import", row(startedAt))).body;
    refused(await api.patch(`/api/workouts/${workout.id}`, { startedAt: tooFar() }), `startedAt ${AHEAD}`);
    expect((await api.get(`/api/workouts/${workout.id}`)).body.startedAt).toBe(startedAt);
    expect((await api.patch(`/api/workouts/${workout.id}`, { startedAt: withinSlack() })).status).toBe(200);
  });

  it("is refused from words: a day too far ahead, or a time that places it there", async () => {
    const api = client(system.url, (await system.account()).key);
    refused(await api.post("/api/workouts/describe", { text: "ran 5k in 25 min", date: utcDay(Date.now() + 2 * DAY_MS) }), `date ${AHEAD}`);
    // 19:00 of UTC's tomorrow at UTC−14 is 09:00 UTC the day after: more than a day from any moment of today.
    const placed = await api.post("/api/workouts/describe", { text: "ran 5k in 25 min at 7pm", date: utcDay(Date.now() + DAY_MS), tz: 840 });
    refused(placed, `the described workout's start ${AHEAD}`);
    expect((await api.get("/api/workouts")).body.items).toEqual([]);
  });
});

describe("the OpenAPI document", () => {
  it("says so where a client reads the field", async () => {
    const { components } = (await client(system.url).get("/openapi.json")).body;
    expect(components.schemas.WeightCreate.properties.ts.description).toContain("At most a day ahead of the server's clock");
    expect(JSON.stringify(components.schemas.FoodItemCreate.properties.date)).toContain("at most the day after the server's UTC today");
    expect(JSON.stringify(components.schemas.WorkoutPatch.properties.startedAt)).toContain("at most a day ahead of the server's clock");
  });
});
