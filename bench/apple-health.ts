// pnpm bench:apple-health [--mib 1024] [--upload-mib 64] [--years 10] [--no-crash] [--zip]
// An Apple Health export.xml over `--years` years (heart rate records every few minutes, as a watch writes them,
// to reach the size; a weigh-in every day with its body fat every week, a waist measurement every week, 1 500
// workouts with their statistics). First `--mib` MiB of it read by the imports service's reader (rootChildren +
// appleRowOf) in this process, as it is generated: elements and rows per second and this process's RSS growth
// (aim: < 200 MiB). Then `--upload-mib` MiB of it (at least 41 MiB over 10 years: 24 heart-rate records a day) through
// the gateway into the imports service of the multi-process platform (PostgreSQL + NATS), issue 39's proof:
// 1. uploaded and read to the end: the upload's and the reading's time, rows per second, the service's RSS growth;
// 2. uploaded again to the same account: it must create 0 rows;
// 3. uploaded to another account with the imports service killed (SIGKILL) when half the rows are read and
//    started again (skipped with --no-crash): it must end with the same counts, and the rows stored for the two
//    accounts (weigh-ins, measurements, workouts: count and an MD5 of their fields) must be the same.
// With --zip the upload is the export.zip a phone gives: the same export.xml as apple_health_export/export.xml and a
// 45-minute GPX route for each workout (a point every 3 s, with elevation and heart rate) in workout-routes/, written
// deflated with yazl as the XML is generated; the workouts' MD5 then covers the climb and moving time only a route
// gives, and each must have its route stored.
// The upload has no overall deadline, only the 60 s of silence a streamed upload may have (UPLOAD_IDLE_TIMEOUT_MS).
// `pnpm build` first: the servers run their dist.
import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { parseArgs } from "node:util";
import yazl from "yazl";
import { makeGpx, straightTrack } from "../packages/activity-files/test/support/activity-files.ts";
import { APPLE_ROOT, appleRowOf } from "../services/imports/src/domain/apple-health.ts";
import { rootChildren } from "../services/imports/src/domain/xml-elements.ts";
import { APPLE_HEAD, APPLE_TAIL, appleRecord, appleWorkout, heartRate } from "../services/imports/test/support/apple-export.ts";
import { onCleanup, runBenchmark } from "./support/cleanup.ts";
import { createBenchDatabase, withClient } from "./support/database.ts";
import { machine } from "./support/machine.ts";
import { memoryOf } from "./support/proc.ts";
import { writeResults } from "./support/report.ts";
import { startPlatform } from "./support/services.ts";

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== "--"),
  options: {
    mib: { type: "string", default: "1024" }, "upload-mib": { type: "string", default: "64" }, years: { type: "string", default: "10" },
    "no-crash": { type: "boolean", default: false }, zip: { type: "boolean", default: false },
  },
});
const readerMib = Number(values.mib);
const mib = Number(values["upload-mib"]);
const years = Number(values.years);
if (![mib, readerMib].every((n) => n >= 1 && n <= 2000) || !(years >= 1 && years <= 30)) throw new Error("--mib and --upload-mib must be 1 to 2000, --years 1 to 30");

const MIB = 1024 * 1024;
const DAY = 86_400_000;
const WORKOUTS = 1500;
const START = Date.UTC(2016, 0, 1, 6);
const days = Math.round(years * 365.25);
// A heart-rate record with its metadata is about 480 bytes: as many as fill the size, spread evenly over the days.
const heartRatesPerDayOf = (size: number) => Math.max(24, Math.round((size * MIB) / 480 / days));
const WORKOUT_EVERY = Math.max(1, Math.floor(days / WORKOUTS));
/** Whether day `d` has a workout: every WORKOUT_EVERY days from the first, WORKOUTS of them. */
const hasWorkout = (d: number) => d % WORKOUT_EVERY === 0 && d / WORKOUT_EVERY < WORKOUTS;
const workoutStartOf = (d: number) => START + d * DAY + 10 * 3_600_000;
const routeOf = (d: number) => `workout-routes/route_${d}.gpx`;

/** Day `d`'s workout route: 8 km north in 45 minutes, a point every 3 s, a climb of 18 to 72 m that differs by day. */
const routeGpx = (d: number) => makeGpx(straightTrack({
  start: new Date(workoutStartOf(d)), points: 901, stepM: 8000 / 900, stepS: 3, startEle: 30 + (d % 50), climbPerStepM: 0.02 + (d % 7) / 100, hr: 148,
}));

let counts = { elements: 0, weighIns: 0, bodyFat: 0, waist: 0, workouts: 0, heartRates: 0 };

/** The export, a day at a time in pieces of about 1 MiB, never held whole. */
async function* exportXml(heartRatesPerDay: number): AsyncGenerator<Buffer> {
  counts = { elements: 0, weighIns: 0, bodyFat: 0, waist: 0, workouts: 0, heartRates: 0 };
  yield Buffer.from(APPLE_HEAD);
  let parts: string[] = [];
  let held = 0;
  const add = (text: string) => {
    parts.push(text);
    held += text.length;
    counts.elements++;
  };
  for (let d = 0; d < days; d++) {
    const day = START + d * DAY;
    const lb = d % 3 === 0;
    add(appleRecord("BodyMass", lb ? "lb" : "kg", lb ? (176 + Math.sin(d / 30) * 4).toFixed(1) : (80 + Math.sin(d / 30) * 2).toFixed(2), day, 60));
    counts.weighIns++;
    if (d % 7 === 0) {
      add(appleRecord("BodyFatPercentage", "%", (0.2 + Math.sin(d / 60) / 50).toFixed(3), day, 60));
      counts.bodyFat++;
      add(appleRecord("WaistCircumference", "cm", (84 + Math.sin(d / 90)).toFixed(1), day, 60));
      counts.waist++;
    }
    if (hasWorkout(d)) {
      add(appleWorkout({ type: d % 2 ? "Running" : "Cycling", startMs: workoutStartOf(d), minutes: 45, distance: { value: 8, unit: "km" }, energy: { value: 450, unit: "kcal" }, hr: { avg: 148, max: 172 }, route: routeOf(d) }));
      counts.workouts++;
    }
    for (let h = 0; h < heartRatesPerDay; h++) {
      add(heartRate(day + Math.floor((h * DAY) / heartRatesPerDay), 55 + (h % 60)));
      counts.heartRates++;
    }
    if (held >= MIB) {
      yield Buffer.from(parts.join(""));
      parts = [];
      held = 0;
    }
  }
  parts.push(APPLE_TAIL);
  yield Buffer.from(parts.join(""));
}

/**
 * export.zip as a phone gives it, written to `path`: export.xml deflated as it is generated, then each workout's
 * route, each made only when yazl reaches it. Returns the inflated sizes of the XML and of the routes together.
 */
const writeExportZip = async (path: string, heartRatesPerDay: number) => {
  const zip = new yazl.ZipFile();
  const inflated = { xml: 0, routes: 0 };
  const xml = async function* () {
    for await (const piece of exportXml(heartRatesPerDay)) {
      inflated.xml += piece.length;
      yield piece;
    }
  };
  zip.addReadStream(Readable.from(xml()), "apple_health_export/export.xml");
  for (let d = 0; d < days; d++) {
    if (!hasWorkout(d)) continue;
    zip.addReadStreamLazy(`apple_health_export/${routeOf(d)}`, (give) => {
      const gpx = Buffer.from(routeGpx(d));
      inflated.routes += gpx.length;
      give(null, Readable.from([gpx]));
    });
  }
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(path));
  return inflated;
};

const gc = (globalThis as { gc?: () => void }).gc;

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

/** The reader alone, fed as the export is generated; the generator's time is part of the figure. */
const readInProcess = async () => {
  const perDay = heartRatesPerDayOf(readerMib);
  gc?.();
  await writeFile("/proc/self/clear_refs", "5");
  const before = (await memoryOf(process.pid))!.rssMb;
  const rows: Record<string, number> = {};
  let bytes = 0;
  const counted = async function* () {
    for await (const piece of exportXml(perDay)) {
      bytes += piece.length;
      yield piece;
    }
  };
  const started = performance.now();
  for await (const element of rootChildren(counted(), 0, 1, APPLE_ROOT)) {
    const row = appleRowOf(element);
    rows[row.kind] = (rows[row.kind] ?? 0) + 1;
  }
  const seconds = (performance.now() - started) / 1000;
  const after = (await memoryOf(process.pid))!;
  const growth = (Math.max(after.peakMb, after.rssMb) - before) / 1.048576;
  const wanted = Object.entries(rows).filter(([kind]) => kind !== "skipped").reduce((sum, [, n]) => sum + n, 0);
  console.log(`reader in this process: ${round(bytes / MIB)} MiB, ${counts.elements} elements (${counts.heartRates} heart rate), ${round(seconds)} s`);
  console.log(`${round(counts.elements / seconds)} elements/s, ${round(wanted / seconds)} rows/s, ${round(bytes / MIB / seconds)} MiB/s; rows ${JSON.stringify(rows)}`);
  console.log(`RSS +${round(growth)} MiB  ${growth < 200 ? "PASS" : "MISS"} (aim < 200 MiB)\n`);
  return { mib: bytes / MIB, seconds, generated: counts, rows, elementsPerSecond: counts.elements / seconds, rowsPerSecond: wanted / seconds, rssGrowthMib: growth };
};

type Summary = { id: string; state: string; counts: Record<string, number>; kinds: Record<string, Record<string, number>>; progress: number; error: string | null };

/** What an account holds of the three kinds, each as its count and an MD5 of its rows' fields in a fixed order (ids aside: an import's differ). */
const storedOf = (databaseUrl: string, accountId: string) =>
  withClient(databaseUrl, async (client) => {
    const digest = async (table: string, fields: string, order: string) => {
      const { rows } = await client.query<{ n: number; md5: string }>(
        `SELECT count(*)::int AS n, md5(coalesce(string_agg(concat_ws('|', ${fields}), ',' ORDER BY ${order}), '')) AS md5 FROM ${table} WHERE account_id = $1`,
        [accountId],
      );
      return rows[0]!;
    };
    return {
      weighIns: await digest("body_metrics.weight_reading", "extract(epoch FROM ts), weight_kg, body_fat_pct, source, external_id", "ts, external_id"),
      measurements: await digest("body_metrics.measurement", "extract(epoch FROM ts), site, value_cm, source, external_id", "ts, external_id"),
      // The climb and moving time come only from a route (export.zip's workout-routes/), the rest from export.xml.
      workouts: await digest("workouts.workout", "extract(epoch FROM started_at), activity_type, source, external_id, duration_s, moving_duration_s, distance_m, elevation_gain_m, energy_kcal, avg_hr, max_hr", "started_at, external_id"),
      routes: await digest("workouts.workout_route JOIN workouts.workout ON id = workout_id", "extract(epoch FROM started_at), segments, splits", "started_at, external_id"),
      climbs: (await client.query<{ n: number }>("SELECT count(elevation_gain_m)::int AS n FROM workouts.workout WHERE account_id = $1", [accountId])).rows[0]!.n,
    };
  });

await runBenchmark(async () => {
  const reader = await readInProcess();
  const db = await createBenchDatabase();
  // A step the killed service held comes back after 10 s rather than a minute.
  const platform = await startPlatform(db.url, { env: { imports: { IMPORT_STEP_ACK_WAIT_MS: "10000" } } });

  // Written to a file first, so the upload goes as fast as the platform takes it.
  const dir = await mkdtemp(join(tmpdir(), "fit-apple-"));
  onCleanup(() => rm(dir, { recursive: true, force: true }));
  const name = values.zip ? "export.zip" : "export.xml";
  const path = join(dir, name);
  const heartRatesPerDay = heartRatesPerDayOf(mib);
  const zipStarted = performance.now();
  let inflated: Awaited<ReturnType<typeof writeExportZip>> | null = null;
  if (values.zip) inflated = await writeExportZip(path, heartRatesPerDay);
  else await pipeline(Readable.from(exportXml(heartRatesPerDay)), createWriteStream(path));
  const bytes = (await stat(path)).size;
  const xmlBytes = inflated?.xml ?? bytes;
  const generated = { ...counts };
  const wanted = generated.weighIns + generated.bodyFat + generated.waist + generated.workouts;
  console.log(`Apple Health export.xml: ${round(xmlBytes / MIB)} MiB over ${years} years, ${heartRatesPerDay} heart-rate records a day`);
  if (inflated) {
    console.log(`export.zip: ${round(bytes / MIB)} MiB (export.xml ${round(xmlBytes / MIB)} MiB and ${generated.workouts} routes of ${round(inflated.routes / MIB)} MiB inflated), written in ${round((performance.now() - zipStarted) / 1000)} s`);
  }
  console.log(`${generated.elements} elements (${generated.heartRates} heart rate, ${generated.weighIns} weigh-ins, ${generated.bodyFat} body fat, ${generated.waist} waist, ${generated.workouts} workouts)`);

  const upload = async (key: string) => {
    const response = await fetch(`${platform.gatewayUrl}/api/imports?name=${name}`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": values.zip ? "application/zip" : "application/xml" },
      body: Readable.toWeb(createReadStream(path, { highWaterMark: 1024 * 1024 })) as ReadableStream,
      duplex: "half",
    });
    const accepted = (await response.json()) as Summary;
    if (response.status !== 202) throw new Error(`upload answered ${response.status}: ${JSON.stringify(accepted)}`);
    return accepted.id;
  };
  /** Polls the import until it is no longer reading; `whenRead` is called once as soon as `atRows` rows are read. */
  const follow = async (key: string, id: string, whenRead?: { atRows: number; then: () => Promise<void> }) => {
    for (;;) {
      const poll = await fetch(`${platform.gatewayUrl}/api/imports/${id}`, { headers: { authorization: `Bearer ${key}` } }).catch(() => null);
      const summary = poll?.ok ? ((await poll.json()) as Summary) : null;
      if (summary && summary.state !== "queued" && summary.state !== "reading") return summary;
      if (summary && whenRead && (summary.counts["read"] ?? 0) >= whenRead.atRows) {
        const { then } = whenRead;
        whenRead = undefined;
        await then();
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  };

  // 1. Uninterrupted, with the imports service's memory sampled.
  const a = await platform.account("apple-health");
  const pid = platform.pids["imports"]!;
  const idle = (await memoryOf(pid))!.rssMb;
  let peak = idle;
  const sampler = setInterval(() => void memoryOf(pid).then((m) => {
    if (m) peak = Math.max(peak, m.rssMb, m.peakMb);
  }), 250);
  const started = performance.now();
  const firstId = await upload(a.key);
  const uploaded = performance.now();
  // The peak so far is the upload's: which of storing and reading the file holds the memory.
  const uploadPeak = Math.max(peak, (await memoryOf(pid))?.peakMb ?? 0);
  const first = await follow(a.key, firstId);
  const read = performance.now();
  clearInterval(sampler);
  const final = await memoryOf(pid);
  if (final) peak = Math.max(peak, final.peakMb);
  const uploadS = (uploaded - started) / 1000;
  const readS = (read - uploaded) / 1000;
  const rows = first.counts["read"] ?? 0;
  const growth = (peak - idle) / 1.048576;
  console.log(`\n1. upload ${round(uploadS)} s (${round(bytes / MIB / uploadS)} MiB/s); read ${round(readS)} s: ${first.state}${first.error ? ` (${first.error})` : ""}`);
  console.log(`${round(rows / readS)} rows/s, ${round(generated.elements / readS)} elements/s, ${round(xmlBytes / MIB / readS)} MiB of XML/s; counts ${JSON.stringify(first.counts)}`);
  console.log(`kinds ${JSON.stringify(first.kinds)}`);
  console.log(`imports RSS ${idle} MB idle, ${uploadPeak} MB at most by the upload's end, ${peak} MB at most: +${round(growth)} MiB  ${growth < 200 ? "PASS" : "MISS"} (aim < 200 MiB)`);
  const storedA = await storedOf(db.url, a.accountId);
  const routesWanted = values.zip ? generated.workouts : 0;
  console.log(`stored ${JSON.stringify(storedA)}; routes and climbs ${storedA.routes.n} and ${storedA.climbs} of ${routesWanted} the upload holds  ${storedA.routes.n === routesWanted && storedA.climbs === routesWanted ? "PASS" : "MISS"}`);

  // 2. The same file again: nothing new.
  const againStarted = performance.now();
  const again = await follow(a.key, await upload(a.key));
  const againS = (performance.now() - againStarted) / 1000;
  const againCreated = again.counts["created"] ?? -1;
  console.log(`\n2. the same file again: ${again.state}, ${againCreated} rows created in ${round(againS)} s  ${againCreated === 0 && again.state === "done" ? "PASS" : "MISS"} (aim: 0)`);

  // 3. Another account, the imports service killed half-way and started again.
  let crash: object | null = null;
  if (!values["no-crash"]) {
    const b = await platform.account("apple-health-crash");
    let killedAt = 0;
    const crashStarted = performance.now();
    const crashed = await follow(b.key, await upload(b.key), {
      atRows: Math.floor(wanted / 2),
      then: async () => {
        killedAt = (performance.now() - crashStarted) / 1000;
        await platform.restart("imports");
      },
    });
    const crashS = (performance.now() - crashStarted) / 1000;
    const storedB = await storedOf(db.url, b.accountId);
    const sameCounts = JSON.stringify(crashed.counts) === JSON.stringify(first.counts) && JSON.stringify(crashed.kinds) === JSON.stringify(first.kinds);
    const sameRows = JSON.stringify(storedA) === JSON.stringify(storedB);
    console.log(`\n3. killed (SIGKILL) at ${round(killedAt)} s, restarted; ${crashed.state} after ${round(crashS)} s; counts ${JSON.stringify(crashed.counts)}`);
    console.log(`counts and kinds as uninterrupted: ${sameCounts ? "PASS" : "MISS"}; stored rows as uninterrupted: ${sameRows ? "PASS" : "MISS"}`);
    console.log(`uninterrupted ${JSON.stringify(storedA)}\ninterrupted   ${JSON.stringify(storedB)}`);
    crash = { killedAtSeconds: killedAt, seconds: crashS, state: crashed.state, counts: crashed.counts, kinds: crashed.kinds, sameCounts, sameRows, stored: { uninterrupted: storedA, interrupted: storedB } };
  }

  const results = {
    mib: bytes / MIB, zip: inflated && { mib: bytes / MIB, xmlMib: xmlBytes / MIB, routesMib: inflated.routes / MIB }, years, generated, stored: storedA, uploadSeconds: uploadS, readSeconds: readS, state: first.state, error: first.error,
    counts: first.counts, kinds: first.kinds, rowsPerSecond: rows / readS, elementsPerSecond: generated.elements / readS,
    mibPerSecond: xmlBytes / MIB / readS, importsRssMb: { idle, uploadPeak, peak }, rssGrowthMib: growth,
    again: { state: again.state, created: againCreated, seconds: againS }, crash,
  };
  console.log(`\nresults: ${await writeResults("apple-health", { at: new Date().toISOString(), machine: machine(), reader, upload: results })}`);
});
