import { randomBytes, randomUUID } from "node:crypto";
import { gzipSync } from "node:zlib";
import { Readable } from "node:stream";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ImportSummary } from "@fit/contracts";
import { makeFit, makeGpx, straightTrack } from "../packages/activity-files/test/support/activity-files.ts";
import { APPLE_HEAD, APPLE_TAIL, appleRecord, appleWorkout, heartRate } from "../services/imports/test/support/apple-export.ts";
import { declareEntries, declareSizes, renamed, zipOf, type ZipEntry } from "../services/imports/test/support/archive.ts";
import { client } from "./support/http.ts";
import { startServiceProcess } from "./support/service-process.ts";
import { startSystem, type System } from "./support/system.ts";
import { waitFor } from "./support/wait.ts";

type Api = ReturnType<typeof client>;
let system: System;

// Small steps, so a file of a few hundred rows is read in many checkpointed steps.
const BATCH_ROWS = 25;

beforeAll(async () => {
  // A step a killed replica held comes back after 5 s rather than a minute.
  system = await startSystem({
    databaseUrl: inject("databaseUrl"), natsUrl: inject("natsUrl"), env: { IMPORT_BATCH_ROWS: String(BATCH_ROWS), IMPORT_STEP_ACK_WAIT_MS: "5000" },
  });
});
afterAll(() => system?.stop());

const DAY = 86_400_000;
/** 07:15 at UTC+1 (Berlin in winter) on day `i` from 2024-11-01. */
const berlinMorning = (i: number) => Date.UTC(2024, 10, 1, 6, 15) + i * DAY;
const withingsFile = (days: number, kg: (i: number) => number) => {
  const lines = ['Date,"Weight (kg)","Fat mass (kg)","Bone mass (kg)","Muscle mass (kg)","Hydration (kg)",Comments'];
  for (let i = 0; i < days; i++) {
    const wall = new Date(berlinMorning(i) + 3_600_000).toISOString().slice(0, 19).replace("T", " ");
    lines.push(`"${wall}",${kg(i).toFixed(2)},${(kg(i) * 0.2).toFixed(2)},3.1,60.2,44.9,`);
  }
  return `${lines.join("\n")}\n`;
};

const upload = (api: Api, file: string, query = "") => api.post(`/api/imports${query}`, file, { "content-type": "text/csv" });

const finished = (api: Api, id: string, timeoutMs = 30_000) =>
  waitFor(`import ${id} to finish`, async () => {
    const { body } = await api.get(`/api/imports/${id}`);
    return ["done", "failed"].includes(body.state) ? ImportSummary.parse(body) : undefined;
  }, timeoutMs);

/** Asks to undo the import (the answer says `undoing`, or `undone` when there was nothing to do), then waits for `undone`. */
const undo = async (api: Api, id: string) => {
  const asked = await api.delete(`/api/imports/${id}`);
  expect(asked.status).toBe(200);
  expect(["undoing", "undone"]).toContain(asked.body.state);
  return waitFor(`import ${id} to be undone`, async () => {
    const { body } = await api.get(`/api/imports/${id}`);
    return body.state === "undone" ? ImportSummary.parse(body) : undefined;
  }, 30_000);
};

/** The chunks stored for one import (its upload and any archive entry inflated from it), or for all of them. */
const chunksOf = async (importId: string) => {
  const db = new pg.Client({ connectionString: system.env.DATABASE_URL });
  await db.connect();
  try {
    return (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM imports.import_chunk WHERE import_id = $1", [importId])).rows[0]!.n;
  } finally {
    await db.end();
  }
};
const allChunks = async () => {
  const db = new pg.Client({ connectionString: system.env.DATABASE_URL });
  await db.connect();
  try {
    return (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM imports.import_chunk")).rows[0]!.n;
  } finally {
    await db.end();
  }
};

/** Billion laughs, abridged: an export.xml whose document type declares entities. */
const entityBomb = () => `<?xml version="1.0"?>\n<!DOCTYPE HealthData [\n<!ENTITY a "${"x".repeat(100)}">\n<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">\n]>\n` +
  `<HealthData>${appleRecord("BodyMass", "kg", 80, Date.UTC(2024, 2, 1))}<Record type="HKQuantityTypeIdentifierBodyMass" unit="kg" startDate="2024-03-02 07:00:00 +0000" value="&b;"/></HealthData>\n`;

/** Every weigh-in of the account, oldest first. */
const weighIns = async (api: Api) => {
  const all: { id: string; ts: number; weightKg: number; bodyFatPct: number | null; source: string }[] = [];
  for (let cursor: string | null = ""; cursor !== null;) {
    const { body } = await api.get(`/api/weight?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    all.push(...body.items);
    cursor = body.nextCursor;
  }
  return all.reverse();
};

describe("food diary imports", () => {
  const MFP_HEADER = "Date,Meal,Time,Calories,Fat (g),Saturated Fat,Polyunsaturated Fat,Monounsaturated Fat,Trans Fat,Cholesterol," +
    "Sodium (mg),Potassium,Carbohydrates (g),Fiber,Sugar,Protein (g),Vitamin A,Vitamin C,Calcium,Iron,Note";
  const mfpRow = (date: string, meal: string, kcal: number, protein: number) => `${date},${meal},,${kcal},10,0,0,0,0,0,0,0,40,5,5,${protein},0,0,0,0,`;

  it("imports MyFitnessPal meals and Cronometer foods into the day's items and totals, once; undo removes exactly them", async () => {
    const api = client(system.url, (await system.account()).key);
    const byHand = await api.post("/api/nutrition/items", { date: "2026-03-01", name: "Apple", kcal: 95, proteinG: 0.5, meal: "snack" });
    expect(byHand.status).toBe(200);
    const mfp = [MFP_HEADER, mfpRow("2026-03-01", "Breakfast", 412, 22.5), mfpRow("2026-03-01", "Dinner", 640, 41), mfpRow("2026-03-02", "Lunch", 530, 35),
      "2026-03-02,Lunch,,not a number,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,"].join("\n") + "\n";
    const accepted = await upload(api, mfp, "?name=mfp.csv");
    expect(accepted.status).toBe(202);
    expect(accepted.body).toMatchObject({ kind: "food", layout: "myfitnesspal" });
    expect(await finished(api, accepted.body.id)).toMatchObject({
      state: "done", counts: { read: 4, created: 3, skipped: 0, refused: 1 }, refusals: [{ line: 5, reason: "no energy" }],
    });
    const day = async (date: string) => (await api.get(`/api/nutrition/items?date=${date}`)).body as { name: string; kcal: number; proteinG: number; meal: string | null; fatG: number }[];
    expect((await day("2026-03-01")).map(({ name, kcal, proteinG, meal, fatG }) => [name, kcal, proteinG, meal, fatG])).toEqual([
      ["Apple", 95, 0.5, "snack", null],
      ["Breakfast (MyFitnessPal totals)", 412, 22.5, "breakfast", 10],
      ["Dinner (MyFitnessPal totals)", 640, 41, "dinner", 10],
    ]);
    const rolledUp = async (date: string) => ((await api.get("/api/nutrition")).body as { date: string; kcal: number }[]).find((t) => t.date === date)?.kcal;
    await waitFor("the day's total", async () => ((await rolledUp("2026-03-01")) === 95 + 412 + 640 || undefined));

    // Cronometer's servings: the same food twice in a meal is two items.
    const cronometer = "Day,Time,Group,Food Name,Amount,Energy (kcal),Carbs (g),Fiber (g),Fat (g),Protein (g),Category\n" +
      '2026-03-02,07:30,Breakfast,"Egg, Whole, Cooked",2.00 large,155,1.1,0,10.6,12.6,Eggs\n' +
      '2026-03-02,07:30,Breakfast,"Egg, Whole, Cooked",2.00 large,155,1.1,0,10.6,12.6,Eggs\n';
    const second = await upload(api, cronometer);
    expect(await finished(api, second.body.id)).toMatchObject({ state: "done", counts: { read: 2, created: 2, skipped: 0 } });
    expect((await day("2026-03-02")).filter((item) => item.name === "Egg, Whole, Cooked")).toHaveLength(2);

    const again = await upload(api, mfp);
    expect(await finished(api, again.body.id)).toMatchObject({ state: "done", counts: { read: 4, created: 0, skipped: 3, refused: 1 } });
    expect(await day("2026-03-01")).toHaveLength(3);

    await undo(api, accepted.body.id);
    expect((await day("2026-03-01")).map((item) => item.name)).toEqual(["Apple"]);
    expect((await day("2026-03-02")).map((item) => item.name)).toEqual(["Egg, Whole, Cooked", "Egg, Whole, Cooked"]);
    await waitFor("the day's total after undo", async () => ((await rolledUp("2026-03-01")) === 95 || undefined));
  }, 60_000);
});

describe("Apple Health exports", () => {
  const T = Date.UTC(2024, 2, 1, 6, 12, 9);
  const DAYS = 40;
  /** An export.xml as Health writes it: its document type, a day of heart rate, steps and workouts among the readings. */
  const exportXml = () => {
    const parts = [APPLE_HEAD];
    for (let i = 0; i < DAYS; i++) {
      const day = T + i * DAY;
      for (let h = 0; h < 24; h++) parts.push(heartRate(day + h * 3_600_000, 55 + h));
      parts.push(appleRecord("StepCount", "count", 8000 + i, day));
      // Half the days in pounds on a clock five hours behind UTC, half in kilograms an hour ahead.
      // Body fat is a record of its own at the weigh-in's instant, before it or after it.
      const fat = i % 10 === 0 ? [appleRecord("BodyFatPercentage", "%", 0.2 + i / 1000, day, 60)] : [];
      if (i % 20 === 0) parts.push(...fat);
      parts.push(i % 2 ? appleRecord("BodyMass", "lb", (176.4 - i * 0.1).toFixed(1), day, -300) : appleRecord("BodyMass", "kg", (80 - i * 0.05).toFixed(2), day, 60));
      if (i % 20 !== 0) parts.push(...fat);
      if (i % 10 === 0) parts.push(appleRecord("WaistCircumference", i % 20 ? "in" : "cm", i % 20 ? 33 : 84, day, 60));
      if (i % 7 === 0) parts.push(appleWorkout({ type: "Running", startMs: day + 3_600_000, minutes: 30, distance: { value: 5, unit: "km" }, energy: { value: 300, unit: "kcal" }, hr: { avg: 150, max: 170 } }));
    }
    // Body fat with no weigh-in at its instant (kept, shown on none), and one out of range.
    parts.push(appleRecord("BodyFatPercentage", "%", 0.25, T + 5 * DAY + 3_600_000), appleRecord("BodyMass", "kg", "n/a", T));
    parts.push(appleRecord("BodyFatPercentage", "%", 0.9, T + 6 * DAY), APPLE_TAIL);
    return parts.join("");
  };
  const bodyFat = (i: number) => (i % 10 === 0 ? 20 + i / 10 : null);
  const weight = (i: number) => (i % 2 ? Math.round((176.4 - i * 0.1) * 0.45359237 * 100) / 100 : Number((80 - i * 0.05).toFixed(2)));
  const workouts = async (api: Api) => (await api.get("/api/workouts?limit=100")).body.items as {
    startedAt: number; activityType: string; source: string; durationS: number; distanceM: number; energyKcal: number; avgHr: number; maxHr: number;
  }[];
  const measurements = async (api: Api) => (await api.get("/api/measurements?limit=200")).body.items as { id: string; ts: number; site: string; valueCm: number }[];

  it("imports weigh-ins (kg and lb) with their body fat, waist measurements and workouts with their offsets, skips the rest, creates nothing the second time, and undo removes every kind", async () => {
    const api = client(system.url, (await system.account()).key);
    const byHand = await api.post("/api/measurements", { site: "waist", valueCm: 90, ts: Date.UTC(2025, 0, 1) });
    expect(byHand.status).toBe(200);
    // Day 10's weigh-in is already there (a scale's CSV): the export adds its body fat, and undo takes only that off.
    const csv = await finished(api, (await upload(api, `Date,Weight\n${new Date(T + 10 * DAY).toISOString()},${weight(10)}\n`)).body.id);
    expect(csv.counts.created).toBe(1);
    const file = exportXml();
    const accepted = await api.post("/api/imports?name=export.xml", file, { "content-type": "application/xml" });
    expect(accepted.status).toBe(202);
    expect(accepted.body).toMatchObject({ kind: "health-export", layout: "apple_health", state: "queued" });
    const first = await finished(api, accepted.body.id, 60_000);
    expect(first).toMatchObject({
      state: "done", error: null,
      counts: { read: DAYS + 4 + 5 + 6 + 2, created: DAYS - 1 + 4 + 5 + 6, skipped: 1, refused: 2 },
      kinds: {
        "weigh-in": { read: DAYS, created: DAYS - 1, skipped: 1 },
        measurement: { read: 4, created: 4, skipped: 0 },
        "body-fat": { read: 5, created: 5, skipped: 0 },
        workout: { read: 6, created: 6, skipped: 0 },
      },
      refusals: [{ reason: '"n/a" is not a number' }, { reason: "body fat of 90 %, not 1 to 80 %" }],
    });
    const stored = await weighIns(api);
    expect(stored.map((w) => [w.ts, w.weightKg, w.bodyFatPct, w.source])).toEqual(
      Array.from({ length: DAYS }, (_, i) => [T + i * DAY, weight(i), bodyFat(i), "import"]),
    );
    const waist = (await measurements(api)).filter((m) => m.id !== byHand.body.id).map((m) => [m.ts, m.site, m.valueCm]).reverse();
    expect(waist).toEqual([[T, "waist", 84], [T + 10 * DAY, "waist", 83.8], [T + 20 * DAY, "waist", 84], [T + 30 * DAY, "waist", 83.8]]);
    const runs = (await workouts(api)).map((w) => [w.startedAt, w.activityType, w.source, w.durationS, w.distanceM, w.energyKcal, w.avgHr, w.maxHr]);
    expect(runs.sort()).toEqual(Array.from({ length: 6 }, (_, k) => [T + k * 7 * DAY + 3_600_000, "run", "phone_health", 1800, 5000, 300, 150, 170]).sort());

    const again = await api.post("/api/imports", file, { "content-type": "application/xml" });
    expect(await finished(api, again.body.id, 60_000)).toMatchObject({
      state: "done", counts: { created: 0 },
      kinds: {
        "weigh-in": { created: 0, skipped: DAYS }, measurement: { created: 0, skipped: 4 }, "body-fat": { created: 0, skipped: 5 },
        workout: { created: 0, skipped: 6 },
      },
    });
    expect(await weighIns(api)).toEqual(stored);

    await undo(api, accepted.body.id);
    expect((await weighIns(api)).map((w) => [w.ts, w.weightKg, w.bodyFatPct])).toEqual([[T + 10 * DAY, weight(10), null]]);
    expect((await measurements(api)).map((m) => m.id)).toEqual([byHand.body.id]);
    expect(await workouts(api)).toEqual([]);
  });

  it("fails at a record past the size cap, keeping the rows of the steps before it, which undo removes", async () => {
    const api = client(system.url, (await system.account()).key);
    const good = Array.from({ length: BATCH_ROWS + 5 }, (_, i) => appleRecord("BodyMass", "kg", 70 + i / 10, T + i * DAY, 60)).join("");
    const huge = ` <Record type="HKQuantityTypeIdentifierBodyMass" unit="kg" value="70" startDate="${"x".repeat(1_100_000)}"/>\n`;
    const accepted = await api.post("/api/imports", APPLE_HEAD + good + huge + APPLE_TAIL, { "content-type": "application/xml" });
    expect(accepted.status).toBe(202);
    const line = APPLE_HEAD.split("\n").length + BATCH_ROWS + 5;
    expect(await finished(api, accepted.body.id)).toMatchObject({
      state: "failed", error: `line ${line}: an element longer than 1024 KiB`, counts: { created: BATCH_ROWS }, kinds: { "weigh-in": { created: BATCH_ROWS } },
    });
    expect(await weighIns(api)).toHaveLength(BATCH_ROWS);
    await undo(api, accepted.body.id);
    expect(await weighIns(api)).toEqual([]);
  });

  it("refuses a document declaring entities: the import fails, nothing written", async () => {
    const api = client(system.url, (await system.account()).key);
    const accepted = await api.post("/api/imports", entityBomb(), { "content-type": "application/xml" });
    expect(accepted.status).toBe(202);
    expect(await finished(api, accepted.body.id)).toMatchObject({ state: "failed", error: "line 3: the document declares entities, which this import refuses", counts: { created: 0 } });
    expect(await weighIns(api)).toEqual([]);
  });

  /** What an account holds after an import, without what the services gave the rows (ids, when they were stored). */
  const holdings = async (api: Api) => {
    const own = (rows: Record<string, unknown>[]) =>
      rows.map(({ id: _, createdAt: _c, updatedAt: _u, ...rest }) => rest).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    return {
      weighIns: own(await weighIns(api)),
      measurements: own(await measurements(api)),
      workouts: own((await api.get("/api/workouts?limit=100")).body.items),
    };
  };

  it("reads export.zip as the export.xml it holds, with the routes its workouts name: the same rows and counts, the archive and its inflated entry dropped once read", async () => {
    // Heart rate from the year before pads export.xml past one stored chunk, so its inflated entry spans several.
    const padding = Array.from({ length: 8_000 }, (_, i) => heartRate(T - 400 * DAY + i * 60_000, 60 + (i % 40))).join("");
    // A walk whose distance Health did not record, with its route in workout-routes/: 2 km north at 10 m every 6 s.
    const WALK_AT = T - 10 * DAY;
    const ROUTE = "workout-routes/route_2024-02-20_7.12am.gpx";
    const walk = appleWorkout({ type: "Walking", startMs: WALK_AT, minutes: 20, energy: { value: 90, unit: "kcal" }, route: ROUTE });
    const routeGpx = makeGpx(straightTrack({ start: new Date(WALK_AT), points: 201, stepM: 10, stepS: 6 }));
    const xml = exportXml().replace("<HealthData locale=\"en_US\">\n", (root) => root + padding + walk);
    expect(xml.length).toBeGreaterThan(2 * 1024 * 1024);
    const zip = await zipOf([
      { name: "apple_health_export/export.xml", data: xml },
      { name: "apple_health_export/export_cda.xml", data: "<?xml version=\"1.0\"?>\n<ClinicalDocument/>\n" },
      { name: `apple_health_export/${ROUTE}`, data: routeGpx },
    ]);
    const posted = client(system.url, (await system.account()).key);
    const plain = await finished(posted, (await posted.post("/api/imports", xml, { "content-type": "application/xml" })).body.id, 60_000);

    const api = client(system.url, (await system.account()).key);
    const accepted = await api.post("/api/imports?name=export.zip", zip, { "content-type": "application/octet-stream" });
    expect(accepted.status).toBe(202);
    expect(accepted.body).toMatchObject({ kind: "health-export", layout: "apple_health", bytes: zip.length, progress: 0 });
    const read = await finished(api, accepted.body.id, 60_000);
    expect(read).toMatchObject({ state: "done", error: null, progress: 1, counts: plain.counts, kinds: plain.kinds, refusals: plain.refusals });
    // Weigh-ins, waist measurements, body fat, the six runs and the walk.
    expect(read.counts.created).toBe(DAYS + 4 + 5 + 7);
    // The walk alone differs: its route and the distance it gives come from the archive.
    const walks = async (account: Api) => ((await account.get("/api/workouts?limit=100")).body.items as { id: string; activityType: string; distanceM: number | null; energyKcal: number; durationS: number; startedAt: number }[])
      .filter((w) => w.activityType === "walk");
    const [zipped] = await walks(api);
    expect([zipped!.startedAt, zipped!.durationS, zipped!.distanceM, zipped!.energyKcal]).toEqual([WALK_AT, 1200, 2000, 90]);
    expect((await walks(posted)).map((w) => w.distanceM)).toEqual([null]);
    const route = (await api.get(`/api/workouts/${zipped!.id}/route`)).body as { segments: [number, number][][] };
    expect(route.segments.flat().length).toBeGreaterThan(100);
    const notWalks = (held: Awaited<ReturnType<typeof holdings>>) => ({ ...held, workouts: held.workouts.filter((w) => w.activityType !== "walk") });
    const stored = await holdings(api);
    expect(notWalks(stored)).toEqual(notWalks(await holdings(posted)));
    expect((await weighIns(api)).map((w) => [w.ts, w.weightKg])).toEqual(Array.from({ length: DAYS }, (_, i) => [T + i * DAY, weight(i)]));
    expect(await chunksOf(accepted.body.id)).toBe(0);

    const again = await api.post("/api/imports", zip, { "content-type": "application/octet-stream" });
    expect(await finished(api, again.body.id, 60_000)).toMatchObject({ state: "done", counts: { created: 0, skipped: read.counts.created + read.counts.skipped } });
    await undo(api, accepted.body.id);
    expect(await holdings(api)).toEqual({ weighIns: [], measurements: [], workouts: [] });
  }, 120_000);
});

describe("Strava bulk exports", () => {
  const HEADER = "Activity ID,Activity Date,Activity Name,Activity Type,Activity Description,Elapsed Time,Distance,Max Heart Rate,Relative Effort," +
    "Commute,Activity Private Note,Activity Gear,Filename,Athlete Weight,Bike Weight,Elapsed Time,Moving Time,Distance,Max Speed,Average Speed," +
    "Elevation Gain,Elevation Loss,Max Heart Rate,Average Heart Rate,Calories";
  const row = (a: { id: number; date: string; name: string; type: string; description?: string; elapsed: number; moving?: number; km?: number; file?: string; maxHr?: number; avgHr?: number; kcal?: number }) =>
    [a.id, `"${a.date}"`, a.name, a.type, `"${a.description ?? ""}"`, a.elapsed, a.km ?? "", a.maxHr ?? "", "", "false", "", "", a.file ?? "", "80.0", "", a.elapsed,
      a.moving ?? "", a.km === undefined ? "" : a.km * 1000, "", "", "", "", a.maxHr ?? "", a.avgHr ?? "", a.kcal ?? ""].join(",");
  const RUN_AT = Date.UTC(2021, 9, 3, 7, 12, 45);
  const RIDE_AT = Date.UTC(2021, 9, 5, 16, 0, 0);
  const YOGA_AT = Date.UTC(2021, 9, 6, 6, 30, 0);

  it("gives a workout per activity: name, description and type from activities.csv, figures from its recording (gzipped or not), the CSV's where it has none", async () => {
    // 5 km north at 10 m every 3 s: 25 minutes with a heart rate of 150, and no energy (GPX has none).
    const track = straightTrack({ start: new Date(RUN_AT), points: 501, stepM: 10, stepS: 3 }).map((point) => ({ ...point, hr: 150 }));
    const ride = makeFit({ sport: "cycling", start: new Date(RIDE_AT), elapsedS: 3600, timerS: 3500, distanceM: 30_000 });
    const csv = [HEADER,
      row({ id: 4711, date: "Oct 3, 2021, 7:12:45 AM", name: "Morning Run", type: "Run", description: "Easy pace, felt good", elapsed: 1500, km: 5.01, file: "activities/4711.gpx", maxHr: 171, avgHr: 149, kcal: 410 }),
      row({ id: 4712, date: "Oct 5, 2021, 4:00:00 PM", name: "Lunch Ride", type: "Ride", elapsed: 3600, km: 30, file: "activities/4712.fit.gz", kcal: 800 }),
      row({ id: 4713, date: "Oct 6, 2021, 6:30:00 AM", name: "Yoga", type: "Yoga", elapsed: 1800 }),
      row({ id: 4714, date: "Oct 7, 2021, 6:30:00 AM", name: "Lost", type: "Run", elapsed: 1200, file: "activities/4714.gpx" }),
    ].join("\n") + "\n";
    const zip = await zipOf([
      { name: "activities.csv", data: csv },
      { name: "activities/4711.gpx", data: makeGpx(track) },
      { name: "activities/4712.fit.gz", data: gzipSync(ride), compress: false },
      { name: "profile.csv", data: "Athlete ID,Email Address\n1,a@example.com\n" },
    ]);
    const api = client(system.url, (await system.account()).key);
    const accepted = await api.post("/api/imports?name=export_1234.zip", zip, { "content-type": "application/zip" });
    expect(accepted.status).toBe(202);
    expect(accepted.body).toMatchObject({ kind: "activities", layout: "strava" });
    expect(await finished(api, accepted.body.id, 60_000)).toMatchObject({
      state: "done", error: null, counts: { read: 4, created: 3, skipped: 0, refused: 1 }, kinds: { workout: { read: 3, created: 3, skipped: 0 } },
      refusals: [{ line: 5, reason: "the archive holds no activities/4714.gpx" }],
    });
    const stored = ((await api.get("/api/workouts?limit=100")).body.items as Record<string, unknown>[]).sort((a, b) => Number(a.startedAt) - Number(b.startedAt));
    // The name is the workout's summary, the description its own (the name again where the CSV has none); energy the
    // recording's, else the CSV's, else an estimate (flagged as one).
    expect(stored.map((w) => [w.startedAt, w.summary, w.description, w.activityType, w.source, w.durationS, w.distanceM, w.energyKcal, w.energyEstimate !== null, w.avgHr])).toEqual([
      [RUN_AT, "Morning Run", "Easy pace, felt good", "run", "activity_app", 1500, 5000, 410, false, 150],
      [RIDE_AT, "Lunch Ride", "Lunch Ride", "ride", "activity_app", 3600, 30_000, 800, false, null],
      [YOGA_AT, "Yoga", "Yoga", "yoga", "activity_app", 1800, null, expect.any(Number), true, null],
    ]);
    const again = await api.post("/api/imports", zip, { "content-type": "application/zip" });
    expect(await finished(api, again.body.id, 60_000)).toMatchObject({ state: "done", counts: { created: 0, skipped: 3, refused: 1 } });
    await undo(api, accepted.body.id);
    expect((await api.get("/api/workouts?limit=100")).body.items).toEqual([]);
  }, 120_000);
});

/**
 * Garmin Connect's export ("Export your data"): the FIT files its devices uploaded in a zip of their own under
 * DI-Connect-Uploaded-Files, and the weights of userBioMetrics.json in grams with GMT instants (ms, or a zoneless time).
 */
const GARMIN_UPLOADS = "DI_CONNECT/DI-Connect-Uploaded-Files/UploadedFiles_0-_Part1.zip";
const GARMIN_WEIGHED_AT = Date.UTC(2023, 4, 1, 6, 10);
const garminBiometrics = JSON.stringify([
  { metaData: { calendarDate: "2023-05-01T00:00:00.0" }, weight: { weight: 81_234.0, bodyFat: 22.46, timestampGMT: GARMIN_WEIGHED_AT, sourceType: "INDEX_SCALE" } },
  { metaData: { calendarDate: "2023-05-02T00:00:00.0" }, height: 181.0 },
  { metaData: { calendarDate: "2023-05-03T00:00:00.0" }, weight: { weight: 80_995.0, bodyFat: 0.0, timestampGMT: "2023-05-03T06:12:00.0", sourceType: "MANUAL" } },
]);
const garminExport = async (uploads: ZipEntry[] | Buffer, more: ZipEntry[] = [], biometrics = garminBiometrics) => zipOf([
  { name: "DI_CONNECT/DI-Connect-User/user_profile.json", data: "{}" },
  { name: GARMIN_UPLOADS, data: Buffer.isBuffer(uploads) ? uploads : await zipOf(uploads) },
  { name: "DI_CONNECT/DI-Connect-Wellness/115386977_userBioMetrics.json", data: biometrics },
  ...more,
]);

/** Part `n` of the export's uploaded files (garminExport holds Part1). */
const garminPart = async (n: number, entries: ZipEntry[]) => ({ name: GARMIN_UPLOADS.replace("Part1", `Part${n}`), data: await zipOf(entries) });

/**
 * An export with 60 weigh-ins and its recordings in three parts: 30 in Part1, 30 and a broken one in Part2, 10 and
 * a copy of Part1's first in Part3 (each part read in more than one step of 25 records but the last).
 */
const threeParts = async () => {
  const weights = Array.from({ length: 60 }, (_, i) => ({ weight: { weight: 80_000 + i * 10, timestampGMT: GARMIN_WEIGHED_AT + i * DAY } }));
  const fits = Array.from({ length: 70 }, (_, i) => ({
    name: `115386977_${1000 + i}.fit`,
    data: Buffer.from(makeFit({ sport: "running", start: new Date(GARMIN_WEIGHED_AT + 3_600_000 + i * DAY), elapsedS: 1200 + i, timerS: 1200, distanceM: 4000 + i })),
  }));
  const zip = await garminExport(fits.slice(0, 30), [
    await garminPart(2, [...fits.slice(30, 60), { name: "broken.fit", data: "not a FIT file" }]),
    await garminPart(3, [...fits.slice(60), { name: "copy.fit", data: fits[0]!.data }]),
  ], JSON.stringify(weights));
  return { zip, weights, durations: fits.map((_, i) => 1200 + i) };
};
// Records 1–60 the weigh-ins, 61–90 Part1, 91–121 Part2 (broken.fit the last), 122–132 Part3.
const THREE_PARTS_READ = {
  state: "done", error: null, progress: 1, counts: { read: 132, created: 130, skipped: 1, refused: 1 },
  kinds: { workout: { read: 71, created: 70, skipped: 1 }, "weigh-in": { read: 60, created: 60, skipped: 0 } },
  refusals: [{ line: 121, reason: expect.stringMatching(/^broken\.fit: /) }],
};

describe("Garmin Connect exports", () => {
  const RUN_AT = Date.UTC(2023, 4, 2, 5, 30, 0);
  const RIDE_AT = Date.UTC(2023, 4, 4, 15, 0, 0);

  it("gives a watch_device workout per FIT file of its nested zip of uploads and a weigh-in per weight, once; undo removes them", async () => {
    const run = makeFit({ sport: "running", start: new Date(RUN_AT), elapsedS: 1800, timerS: 1750, distanceM: 5200, calories: 420, avgHr: 151, maxHr: 172 });
    const ride = makeFit({ sport: "cycling", start: new Date(RIDE_AT), elapsedS: 5400, timerS: 5300, distanceM: 42_000, calories: 1100 });
    const zip = await garminExport([
      { name: "115386977_12345678901.fit", data: Buffer.from(run) },
      { name: "115386977_12345678902.fit", data: Buffer.from(ride) },
      { name: "readme.txt", data: "not a recording" },
    ]);
    const api = client(system.url, (await system.account()).key);
    const accepted = await api.post("/api/imports?name=garmin.zip", zip, { "content-type": "application/zip" });
    expect(accepted.status).toBe(202);
    expect(accepted.body).toMatchObject({ kind: "activities", layout: "garmin" });
    expect(await finished(api, accepted.body.id, 60_000)).toMatchObject({
      state: "done", error: null, progress: 1, counts: { read: 4, created: 4, skipped: 0, refused: 0 },
      kinds: { workout: { read: 2, created: 2, skipped: 0 }, "weigh-in": { read: 2, created: 2, skipped: 0 } },
    });
    const stored = ((await api.get("/api/workouts?limit=100")).body.items as Record<string, unknown>[]).sort((a, b) => Number(a.startedAt) - Number(b.startedAt));
    expect(stored.map((w) => [w.startedAt, w.activityType, w.source, w.durationS, w.distanceM, w.energyKcal, w.avgHr, w.maxHr])).toEqual([
      [RUN_AT, "run", "watch_device", 1800, 5200, 420, 151, 172],
      [RIDE_AT, "ride", "watch_device", 5400, 42_000, 1100, null, null],
    ]);
    expect((await weighIns(api)).map((w) => [w.ts, w.weightKg, w.bodyFatPct])).toEqual([
      [GARMIN_WEIGHED_AT, 81.23, 22.5],
      [Date.UTC(2023, 4, 3, 6, 12), 81, null],
    ]);
    expect(await chunksOf(accepted.body.id)).toBe(0);
    const again = await api.post("/api/imports", zip, { "content-type": "application/zip" });
    expect(await finished(api, again.body.id, 60_000)).toMatchObject({ state: "done", counts: { created: 0, skipped: 4, refused: 0 } });
    await undo(api, accepted.body.id);
    expect((await api.get("/api/workouts?limit=100")).body.items).toEqual([]);
    expect(await weighIns(api)).toEqual([]);
  }, 120_000);

  it("reads every part of the uploaded files in turn, in checkpointed steps, each row once; again creates nothing, undo removes all", async () => {
    const { zip, weights, durations } = await threeParts();
    const api = client(system.url, (await system.account()).key);
    const accepted = await api.post("/api/imports", zip, { "content-type": "application/zip" });
    expect(accepted.status).toBe(202);
    expect(await finished(api, accepted.body.id, 90_000)).toMatchObject(THREE_PARTS_READ);
    expect((await weighIns(api)).map((w) => w.weightKg)).toEqual(weights.map((w) => w.weight.weight / 1000));
    const stored = (await api.get("/api/workouts?limit=100")).body.items as { durationS: number }[];
    expect(stored.map((w) => w.durationS).sort()).toEqual(durations);
    expect(await chunksOf(accepted.body.id)).toBe(0);
    const again = await api.post("/api/imports", zip, { "content-type": "application/zip" });
    expect(await finished(api, again.body.id, 90_000)).toMatchObject({ state: "done", counts: { created: 0, skipped: 131, refused: 1 } });
    await undo(api, accepted.body.id);
    expect((await api.get("/api/workouts?limit=100")).body.items).toEqual([]);
    expect(await weighIns(api)).toEqual([]);
  }, 180_000);
});

describe("hostile archives", () => {
  const T = Date.UTC(2024, 2, 1, 6, 12, 9);
  const weighInsXml = (n: number) => APPLE_HEAD + Array.from({ length: n }, (_, i) => appleRecord("BodyMass", "kg", 70 + i / 10, T + i * DAY, 60)).join("") + APPLE_TAIL;
  const EXPORT = "apple_health_export/export.xml";
  const send = (api: Api, zip: Buffer) => api.post("/api/imports", zip, { "content-type": "application/octet-stream" });

  /** Refused at upload with the reason, and nothing of it kept. */
  const refusedAtUpload = async (zip: Buffer, reason: RegExp) => {
    const api = client(system.url, (await system.account()).key);
    const before = await allChunks();
    const answer = await send(api, zip);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(reason);
    expect((await api.get("/api/imports")).body.items).toEqual([]);
    expect(await allChunks()).toBeLessThanOrEqual(before);
  };

  /** Accepted, then failed with the reason before any row is written; neither the archive nor its entry is kept. */
  const failsReading = async (zip: Buffer, reason: RegExp) => {
    const api = client(system.url, (await system.account()).key);
    const accepted = await send(api, zip);
    expect(accepted.status).toBe(202);
    const failed = await finished(api, accepted.body.id, 60_000);
    expect(failed).toMatchObject({ state: "failed", counts: { read: 0, created: 0 } });
    expect(failed.error).toMatch(reason);
    expect(await chunksOf(accepted.body.id)).toBe(0);
    expect(await weighIns(api)).toEqual([]);
  };

  it("refuses a zip bomb by its compression ratio and by the total its entries declare, before inflating anything", async () => {
    // 20 MB of spaces deflate to about 20 KB: a thousand to one.
    await refusedAtUpload(await zipOf([{ name: EXPORT, data: Buffer.alloc(20_000_000, 0x20) }]), /apple_health_export\/export\.xml would inflate more than 200 times/);
    // Two entries each declaring 3.75 GiB from 32 MiB (120:1), more than 4 GiB together.
    const big = declareSizes(await zipOf([{ name: EXPORT, data: weighInsXml(3) }, { name: "apple_health_export/b.xml", data: "<b/>" }]),
      () => ({ compressed: 32 * 1024 * 1024, uncompressed: 0xf000_0000 }));
    await refusedAtUpload(big, /its entries would inflate to more than 4 GiB/);
  });

  it("stops inflating an entry that inflates past the size its header declares (a lying header), and keeps nothing", async () => {
    const xml = weighInsXml(2_000);
    const zip = await zipOf([{ name: EXPORT, data: xml }]);
    const lying = declareSizes(zip, () => ({ uncompressed: Math.floor(xml.length / 4) }));
    const heapBefore = process.memoryUsage().heapUsed;
    await failsReading(lying, /the archive is refused: apple_health_export\/export\.xml: too many bytes in the stream/);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(100 * 1024 * 1024);
  });

  it("refuses names that leave the archive, symbolic links, a zip inside the zip and more than 100 000 entries", async () => {
    const traversal = renamed(await zipOf([{ name: EXPORT, data: weighInsXml(1) }, { name: "aa/evil.sh", data: "#!/bin/sh\n" }]), "aa/evil.sh", "../evil.sh");
    await refusedAtUpload(traversal, /the archive is refused: invalid relative path: \.\.\/evil\.sh/);
    const absolute = renamed(await zipOf([{ name: "etc/passwd", data: "root:x:0:0\n" }, { name: EXPORT, data: weighInsXml(1) }]), "etc/passwd", "/etc/passw");
    await refusedAtUpload(absolute, /the archive is refused: absolute path: \/etc\/passw/);
    await refusedAtUpload(await zipOf([{ name: EXPORT, data: "/etc/passwd", mode: 0o120777 }]), /apple_health_export\/export\.xml is a symbolic link/);
    const inner = await zipOf([{ name: EXPORT, data: weighInsXml(1) }]);
    await refusedAtUpload(await zipOf([{ name: "export.zip", data: inner, compress: false }]), /it holds another archive \(export\.zip\)/);
    await refusedAtUpload(await zipOf([{ name: "notes.txt", data: "hello" }]), /no apple_health_export\/export\.xml/);
    await refusedAtUpload(declareEntries(await zipOf([{ name: EXPORT, data: weighInsXml(1) }], true), 100_001), /100001 entries, more than 100000/);
    // A zip is read inside Garmin's export alone, where its uploaded files are.
    const uploads = await zipOf([{ name: "a.fit", data: Buffer.from(makeFit({ sport: "running", start: new Date(T), elapsedS: 60, timerS: 60, distanceM: 200 })) }]);
    await refusedAtUpload(await zipOf([{ name: "Garmin/UploadedFiles_0-_Part1.zip", data: uploads }]), /it holds another archive \(Garmin\/UploadedFiles_0-_Part1\.zip\)/);
  });

  it("checks a Garmin export's nested zip of uploads as an archive once inflated: a zip inside it, or more than 4 GiB with the export's own entries, fails the import before a row is written", async () => {
    const fit = Buffer.from(makeFit({ sport: "running", start: new Date(T), elapsedS: 60, timerS: 60, distanceM: 200 }));
    await failsReading(await garminExport([{ name: "a.fit", data: fit }, { name: "deeper.zip", data: await zipOf([{ name: "b.fit", data: fit }]) }]),
      /it holds an archive inside its uploaded files \(deeper\.zip\)/);
    // The uploads declare 3.75 GiB (120:1), the export's other entries 272 MiB (136:1): each under the cap, together over it.
    const uploads = declareSizes(await zipOf([{ name: "a.fit", data: fit }]), () => ({ compressed: 32 * 1024 * 1024, uncompressed: 0xf000_0000 }));
    const big = declareSizes(await garminExport(uploads, [{ name: "DI_CONNECT/DI-Connect-Fitness/big.json", data: "[]" }]),
      (name) => (name.endsWith("big.json") ? { compressed: 2 * 1024 * 1024, uncompressed: 0x1100_0000 } : {}));
    await failsReading(big, /its entries would inflate to more than 4 GiB/);
  }, 60_000);

  it("checks each further part of a Garmin export's uploads the same way when it is inflated: the import fails there, keeping what the parts before made for undo", async () => {
    const fit = (minutes: number) => Buffer.from(makeFit({ sport: "running", start: new Date(T + minutes * 60_000), elapsedS: 60, timerS: 60, distanceM: 200 }));
    /** Fails at Part2 with the reason, Part1's one workout kept, nothing stored; undo removes the workout. */
    const failsAtPart2 = async (zip: Buffer, reason: RegExp) => {
      const api = client(system.url, (await system.account()).key);
      const accepted = await send(api, zip);
      expect(accepted.status).toBe(202);
      const failed = await finished(api, accepted.body.id, 60_000);
      expect(failed).toMatchObject({ state: "failed", counts: { read: 1, created: 1 } });
      expect(failed.error).toMatch(reason);
      expect(await chunksOf(accepted.body.id)).toBe(0);
      await undo(api, accepted.body.id);
      expect((await api.get("/api/workouts?limit=100")).body.items).toEqual([]);
    };
    const nesting = await garminPart(2, [{ name: "b.fit", data: fit(10) }, { name: "deeper.zip", data: await zipOf([{ name: "c.fit", data: fit(20) }]) }]);
    await failsAtPart2(await garminExport([{ name: "a.fit", data: fit(0) }], [nesting], "[]"), /it holds an archive inside its uploaded files \(deeper\.zip\)/);
    // Each part declares 2.25 GiB (72:1) beside its recording: under the cap alone, over it counted together.
    const declaring = async (entries: ZipEntry[]) => declareSizes(await zipOf([...entries, { name: "big.json", data: "[]" }]),
      (name) => (name === "big.json" ? { compressed: 32 * 1024 * 1024, uncompressed: 0x9000_0000 } : {}));
    const part2 = { name: GARMIN_UPLOADS.replace("Part1", "Part2"), data: await declaring([{ name: "b.fit", data: fit(40) }]) };
    await failsAtPart2(await garminExport(await declaring([{ name: "a.fit", data: fit(30) }]), [part2], "[]"), /its entries would inflate to more than 4 GiB/);
  }, 90_000);

  it("fails an export.xml inside the zip that declares entities, or holds a line past the element cap, before writing a row", async () => {
    await failsReading(await zipOf([{ name: EXPORT, data: entityBomb() }]), /line 3: the document declares entities, which this import refuses/);
    // Random text, so the line does not compress past the ratio cap: the reader's own cap refuses it.
    const line = randomBytes(900_000).toString("base64");
    const huge = `${APPLE_HEAD} <Record type="HKQuantityTypeIdentifierBodyMass" unit="kg" value="70" startDate="${line}"/>\n${APPLE_TAIL}`;
    await failsReading(await zipOf([{ name: EXPORT, data: huge }]), /an element longer than 1024 KiB/);
  }, 60_000);
});

describe("weigh-in imports", () => {
  it("imports a Withings export once, counts a second upload as skipped, and undo removes exactly its rows", async () => {
    const api = client(system.url, (await system.account()).key);
    const byHand = await api.post("/api/weight", { weightKg: 90, ts: Date.UTC(2025, 9, 1, 7) });
    expect(byHand.status).toBe(200);
    const days = 60;
    const kg = (i: number) => 85 - i * 0.05;
    const file = withingsFile(days, kg);

    const accepted = await upload(api, file, "?tz=Europe/Berlin&name=withings.csv");
    expect(accepted.status).toBe(202);
    expect(ImportSummary.parse(accepted.body)).toMatchObject({ state: "queued", fileName: "withings.csv", bytes: Buffer.byteLength(file), layout: "withings" });
    const first = await finished(api, accepted.body.id);
    expect(first).toMatchObject({ state: "done", progress: 1, error: null, counts: { read: days, created: days, skipped: 0, refused: 0 }, refusals: [] });

    const stored = await weighIns(api);
    expect(stored).toHaveLength(days + 1);
    const imported = stored.filter((w) => w.source === "import");
    expect(imported.map((w) => [w.ts, w.weightKg, w.bodyFatPct])).toEqual(
      Array.from({ length: days }, (_, i) => [berlinMorning(i), Number(kg(i).toFixed(2)), 20]),
    );

    const again = await upload(api, file, "?tz=Europe/Berlin");
    expect(again.status).toBe(202);
    expect(await finished(api, again.body.id)).toMatchObject({ state: "done", counts: { read: days, created: 0, skipped: days, refused: 0 } });
    expect(await weighIns(api)).toEqual(stored);

    const list = await api.get("/api/imports");
    expect(list.body.items.map((i: { id: string }) => i.id)).toEqual([again.body.id, accepted.body.id]);

    // The second import created nothing, so its undo removes nothing; the first's removes its rows and no other.
    await undo(api, again.body.id);
    expect(await weighIns(api)).toEqual(stored);
    const undoing = await api.delete(`/api/imports/${accepted.body.id}`);
    expect(undoing.status).toBe(200);
    expect(undoing.body).toMatchObject({ state: "undoing" });
    expect((await api.delete(`/api/imports/${accepted.body.id}`)).body.state).toMatch(/^undo(ing|ne)$/);
    expect(await undo(api, accepted.body.id)).toMatchObject({ state: "undone", counts: { created: days } });
    expect((await weighIns(api)).map((w) => w.id)).toEqual([byHand.body.id]);
  });

  it("reads pounds into kilograms rounded to two decimals, from a small file sent as JSON", async () => {
    const api = client(system.url, (await system.account()).key);
    const text = "Date,Weight,BMI,Fat\n12-30-2025,180.0,24.4,0\n12-31-2025,179.9,24.3,21.5\n";
    const accepted = await api.post("/api/imports?unit=lb&tz=America/New_York", { text });
    expect(accepted.status).toBe(202);
    expect(await finished(api, accepted.body.id)).toMatchObject({ layout: "fitbit", counts: { read: 2, created: 2 } });
    expect((await weighIns(api)).map((w) => [w.ts, w.weightKg, w.bodyFatPct])).toEqual([
      [Date.UTC(2025, 11, 30, 17), 81.65, null],
      [Date.UTC(2025, 11, 31, 17), 81.6, 21.5],
    ]);
  });

  it("refuses rows it cannot read with their lines and reasons, and a file it cannot read at all", async () => {
    const api = client(system.url, (await system.account()).key);
    const file = 'Date,"Weight (kg)"\n2025-06-01 07:00,80.1\nsoon,80\n2025-06-03 07:00,\n2025-06-04 07:00,1000\n2025-06-05 07:00,80.4\n';
    const accepted = await upload(api, file);
    expect(await finished(api, accepted.body.id)).toMatchObject({
      state: "done",
      counts: { read: 5, created: 2, skipped: 0, refused: 3 },
      refusals: [
        { line: 3, reason: '"soon" is not a date this import reads' },
        { line: 4, reason: "no weight" },
        { line: 5, reason: "weightKg must be between 9 and 320 kg" },
      ],
    });
    expect((await weighIns(api)).map((w) => w.weightKg)).toEqual([80.1, 80.4]);

    // No header this import knows: refused at once, and nothing kept.
    const unknown = await upload(api, "name,kcal\napple,95\n");
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatch(/header/);
    const empty = await upload(api, "");
    expect(empty.status).toBe(400);
    // A line past the limit fails the import with the reason; the rows before it stay, undo removes them.
    const long = await upload(api, `Date,"Weight (kg)"\n2025-07-01 07:00,80\n2025-07-02 07:00,80,${"x".repeat(70_000)}\n`);
    expect(long.status).toBe(202);
    expect(await finished(api, long.body.id)).toMatchObject({ state: "failed", error: "line 3 is longer than 64 KiB" });
    expect((await api.get("/api/imports")).body.items.map((i: { id: string }) => i.id)).toEqual([long.body.id, accepted.body.id]);
    expect(await api.get("/api/imports?tz=Mars/Base")).toMatchObject({ status: 200 });
    expect((await upload(api, file, "?tz=Mars/Base")).status).toBe(400);
  });

  it("streams a chunked upload of several megabytes (no declared length) and holds its JSON form to 64 KiB", async () => {
    const { key } = await system.account();
    const api = client(system.url, key);
    const post = (contentType: string, parts: Buffer[]) =>
      fetch(`${system.url}/api/imports`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": contentType },
        body: Readable.toWeb(Readable.from(parts)),
        duplex: "half",
      });
    // 1 500 rows with a 2 000-character comment each: three megabytes, so the file spans several stored chunks.
    const rows = 1_500;
    const first = Date.UTC(2020, 0, 1, 7);
    const lines = Array.from({ length: rows }, (_, i) =>
      `${new Date(first + i * DAY).toISOString().slice(0, 19).replace("T", " ")},${(70 + (i % 100) / 10).toFixed(1)},,,,,"${"note ".repeat(400)}"\n`);
    const file = Buffer.from(`Date,"Weight (kg)","Fat mass (kg)","Bone mass (kg)","Muscle mass (kg)","Hydration (kg)",Comments\n${lines.join("")}`);
    expect(file.length).toBeGreaterThan(3_000_000);
    const pieces = Array.from({ length: Math.ceil(file.length / 65_536) }, (_, i) => file.subarray(i * 65_536, (i + 1) * 65_536));
    const streamed = await post("text/csv", pieces);
    expect(streamed.status).toBe(202);
    const { id, bytes } = (await streamed.json()) as { id: string; bytes: number };
    expect(bytes).toBe(file.length);
    expect(await finished(api, id, 60_000)).toMatchObject({ state: "done", counts: { read: rows, created: rows, skipped: 0, refused: 0 } });
    const stored = await weighIns(api);
    expect(stored.map((w) => [w.ts, w.weightKg])).toEqual(Array.from({ length: rows }, (_, i) => [first + i * DAY, Number((70 + (i % 100) / 10).toFixed(1))]));

    const big = JSON.stringify({ text: `Date,"Weight (kg)"\n${"2025-01-01 07:00,80\n".repeat(5_000)}` });
    const refused = await post("application/json", [Buffer.from(big)]);
    expect(refused.status).toBe(413);
    expect(await refused.json()).toEqual({ error: "request body is too large" });
  });

  it("is the uploader's alone: another account can neither read nor undo it, a key without the scope cannot start one", async () => {
    const owner = await system.account();
    const api = client(system.url, owner.key);
    const accepted = await upload(api, withingsFile(3, () => 70));
    await finished(api, accepted.body.id);
    const stranger = client(system.url, (await system.account()).key);
    expect((await stranger.get(`/api/imports/${accepted.body.id}`)).status).toBe(404);
    expect((await stranger.delete(`/api/imports/${accepted.body.id}`)).status).toBe(404);
    expect((await stranger.get("/api/imports")).body.items).toEqual([]);
    expect((await api.get(`/api/imports/${accepted.body.id}`)).body.state).toBe("done");
    expect(await weighIns(api)).toHaveLength(3);

    const weightOnly = client(system.url, (await system.key(owner.email, { scopes: ["weight:read", "weight:write"] })).key);
    expect((await upload(weightOnly, withingsFile(1, () => 70))).status).toBe(403);
  });

  it("goes on from its checkpoint when the imports service stops mid-way and another one starts, which prunes uploads abandoned long ago", async () => {
    const api = client(system.url, (await system.account()).key);
    const days = 400;
    const kg = (i: number) => 80 + (i % 10) / 10;
    // A fixed UTC+1 zone: the file's 400 mornings span summer time, which Europe/Berlin would move.
    const accepted = await upload(api, withingsFile(days, kg), "?tz=Etc/GMT-1");
    const id = accepted.body.id as string;
    await waitFor("the import to be part read", async () => {
      const { body } = await api.get(`/api/imports/${id}`);
      return body.counts.read > 0 && body.state === "reading" ? true : undefined;
    });
    await system.apps.imports.close();
    const partway = (await weighIns(api)).length;
    expect(partway).toBeLessThan(days);
    // Uploads cut off by a replica's death, with no import: one whose last chunk came two hours ago, one still arriving.
    const db = new pg.Client({ connectionString: system.env.DATABASE_URL });
    await db.connect();
    const [abandoned, arriving] = [randomUUID(), randomUUID()];
    const chunks = (importId: string) => db.query<{ n: number }>("SELECT count(*)::int AS n FROM imports.import_chunk WHERE import_id = $1", [importId]);
    await db.query(`INSERT INTO imports.import_chunk (import_id, seq, data, created_at) VALUES
      ($1, 0, 'x', now() - interval '3 hours'), ($1, 1, 'y', now() - interval '2 hours'), ($2, 0, 'x', now() - interval '3 hours'), ($2, 1, 'y', now())`,
    [abandoned, arriving]);

    const replacement = await system.inPlace("imports");
    try {
      await waitFor("the abandoned upload to be pruned", async () => ((await chunks(abandoned)).rows[0]!.n === 0 || undefined));
      expect((await chunks(arriving)).rows[0]!.n).toBe(2);
      await db.query("DELETE FROM imports.import_chunk WHERE import_id = $1", [arriving]);
      await db.end();
      expect(await finished(api, id, 60_000)).toMatchObject({ state: "done", counts: { read: days, created: days, skipped: 0, refused: 0 } });
      const stored = await weighIns(api);
      expect(stored.map((w) => [w.ts, w.weightKg])).toEqual(Array.from({ length: days }, (_, i) => [berlinMorning(i), Number(kg(i).toFixed(2))]));
    } finally {
      // The system closes the app it built; this one is the test's.
      await replacement.close();
    }
  });
  it("finishes with the same rows and counts when the process taking its steps is killed part-way (SIGKILL) and another goes on", async () => {
    const api = client(system.url, (await system.account()).key);
    const days = 700;
    const kg = (i: number) => 60 + (i % 50) / 10;
    const file = withingsFile(days, kg);
    // The gateway reaches an imports service on the system's port; the steps are taken by a process of its own.
    await system.apps.imports.close();
    const front = await system.inPlace("imports");
    const accepted = await upload(api, file, "?tz=Etc/GMT-1");
    expect(accepted.status).toBe(202);
    await front.close();
    const id = accepted.body.id as string;
    const db = new pg.Client({ connectionString: system.env.DATABASE_URL });
    await db.connect();
    try {
      const progress = async () => (await db.query<{ read: number; state: string }>("SELECT read, state FROM imports.import WHERE id = $1", [id])).rows[0]!;
      const worker = await startServiceProcess("services/imports/src/main.ts", { ...system.env, LOG_LEVEL: "warn" });
      await waitFor("the worker to be part-way", async () => ((await progress()).read >= 200 ? true : undefined), 30_000, 10);
      await worker.kill("SIGKILL");
      const atKill = await progress();
      expect(atKill.state).toBe("reading");
      expect(atKill.read).toBeLessThan(days);
    } finally {
      await db.end();
    }
    const survivor = await system.inPlace("imports");
    try {
      expect(await finished(api, id, 90_000)).toMatchObject({ state: "done", counts: { read: days, created: days, skipped: 0, refused: 0 } });
      const stored = await weighIns(api);
      expect(stored.map((w) => [w.ts, w.weightKg, w.source])).toEqual(Array.from({ length: days }, (_, i) => [berlinMorning(i), Number(kg(i).toFixed(2)), "import"]));
      // Undo finds every row, the ones written by the killed step included.
      await undo(api, id);
      expect(await weighIns(api)).toEqual([]);
    } finally {
      await survivor.close();
    }
  }, 150_000);
});

// Last: it leaves the system without the imports service it started with, as the weigh-in imports' kill test does.
describe("Garmin Connect exports, the worker killed", () => {
  it("goes on from the part it was at when the process taking its steps is killed in a later part (SIGKILL)", async () => {
    const { zip, durations } = await threeParts();
    const api = client(system.url, (await system.account()).key);
    // The gateway reaches an imports service on the system's port; the steps are taken by a process of its own.
    await system.apps.imports.close();
    const front = await system.inPlace("imports");
    const accepted = await api.post("/api/imports", zip, { "content-type": "application/zip" });
    expect(accepted.status).toBe(202);
    await front.close();
    const id = accepted.body.id as string;
    const db = new pg.Client({ connectionString: system.env.DATABASE_URL });
    await db.connect();
    try {
      type Place = { part: number; inflated: boolean; readingPart: boolean; state: string };
      const place = async () => (await db.query<Place>(
        "SELECT part, inflated, line > part_line AS \"readingPart\", state FROM imports.import WHERE id = $1", [id])).rows[0]!;
      // Killed first as Part1 is done (the next step inflates Part2), then once Part2's records are being read.
      const kills: [string, (at: Place) => boolean][] = [
        ["past Part1", (at) => at.part >= 1],
        ["reading Part2", (at) => at.part === 2 || (at.part === 1 && at.inflated && at.readingPart)],
      ];
      for (const [where, reached] of kills) {
        const worker = await startServiceProcess("services/imports/src/main.ts", { ...system.env, LOG_LEVEL: "warn" });
        await waitFor(`the worker to be ${where}`, async () => (reached(await place()) ? true : undefined), 60_000, 10);
        await worker.kill("SIGKILL");
        expect(await place()).toMatchObject({ state: "reading" });
      }
    } finally {
      await db.end();
    }
    const survivor = await system.inPlace("imports");
    try {
      expect(await finished(api, id, 90_000)).toMatchObject(THREE_PARTS_READ);
      const stored = (await api.get("/api/workouts?limit=100")).body.items as { durationS: number }[];
      expect(stored.map((w) => w.durationS).sort()).toEqual(durations);
      expect(await chunksOf(id)).toBe(0);
      // Undo finds every row, the ones written by the killed step included.
      await undo(api, id);
      expect((await api.get("/api/workouts?limit=100")).body.items).toEqual([]);
      expect(await weighIns(api)).toEqual([]);
    } finally {
      await survivor.close();
    }
  }, 180_000);
});
