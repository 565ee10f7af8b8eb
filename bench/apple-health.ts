// pnpm bench:apple-health [--mib 1024] [--upload-mib 64] [--years 10]
// An Apple Health export.xml over `--years` years (heart rate records every few minutes, as a watch writes them,
// to reach the size; a weigh-in every day, a waist measurement every week, 1 500 workouts with their statistics).
// First `--mib` MiB of it read by the imports service's reader (rootChildren + appleRowOf) in this process, as it
// is generated: elements and rows per second and this process's RSS growth (aim: < 200 MiB). Then `--upload-mib`
// MiB of it streamed through the gateway into the imports service of the multi-process platform (PostgreSQL +
// NATS) and followed until done: the upload's and the reading's time, rows per second, the service's RSS growth.
// The upload is bounded by the servers' 30 s for a request to arrive (packages/service-kit's requestTimeout).
// `pnpm build` first: the servers run their dist.
import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { parseArgs } from "node:util";
import { APPLE_ROOT, appleRowOf } from "../services/imports/src/domain/apple-health.ts";
import { rootChildren } from "../services/imports/src/domain/xml-elements.ts";
import { APPLE_HEAD, APPLE_TAIL, appleRecord, appleWorkout, heartRate } from "../services/imports/test/support/apple-export.ts";
import { onCleanup, runBenchmark } from "./support/cleanup.ts";
import { createBenchDatabase } from "./support/database.ts";
import { machine } from "./support/machine.ts";
import { memoryOf } from "./support/proc.ts";
import { writeResults } from "./support/report.ts";
import { startPlatform } from "./support/services.ts";

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== "--"),
  options: { mib: { type: "string", default: "1024" }, "upload-mib": { type: "string", default: "64" }, years: { type: "string", default: "10" } },
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

let counts = { elements: 0, weighIns: 0, waist: 0, workouts: 0, heartRates: 0 };

/** The export, a day at a time in pieces of about 1 MiB, never held whole. */
async function* exportXml(heartRatesPerDay: number): AsyncGenerator<Buffer> {
  counts = { elements: 0, weighIns: 0, waist: 0, workouts: 0, heartRates: 0 };
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
      add(appleRecord("WaistCircumference", "cm", (84 + Math.sin(d / 90)).toFixed(1), day, 60));
      counts.waist++;
    }
    if (counts.workouts < WORKOUTS && d % Math.max(1, Math.floor(days / WORKOUTS)) === 0) {
      add(appleWorkout({ type: d % 2 ? "Running" : "Cycling", startMs: day + 10 * 3_600_000, minutes: 45, distance: { value: 8, unit: "km" }, energy: { value: 450, unit: "kcal" }, hr: { avg: 148, max: 172 }, route: `workout-routes/route_${d}.gpx` }));
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

await runBenchmark(async () => {
  const reader = await readInProcess();
  const db = await createBenchDatabase();
  const platform = await startPlatform(db.url);
  const { key } = await platform.account("apple-health");
  const pid = platform.pids["imports"]!;
  const idle = (await memoryOf(pid))!.rssMb;
  let peak = idle;
  const sampler = setInterval(() => void memoryOf(pid).then((m) => {
    if (m) peak = Math.max(peak, m.rssMb, m.peakMb);
  }), 250);

  // Written to a file first, so the upload goes as fast as the platform takes it: the servers allow a request
  // 30 s to arrive (packages/service-kit's requestTimeout), which is what bounds the size this can send.
  const dir = await mkdtemp(join(tmpdir(), "fit-apple-"));
  onCleanup(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, "export.xml");
  const heartRatesPerDay = heartRatesPerDayOf(mib);
  await pipeline(Readable.from(exportXml(heartRatesPerDay)), createWriteStream(path));
  const bytes = (await stat(path)).size;
  console.log(`Apple Health export.xml: ${mib} MiB over ${years} years, ${heartRatesPerDay} heart-rate records a day`);
  const started = performance.now();
  const response = await fetch(`${platform.gatewayUrl}/api/imports?name=export.xml`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/xml" },
    body: Readable.toWeb(createReadStream(path, { highWaterMark: 1024 * 1024 })) as ReadableStream,
    duplex: "half",
  });
  const accepted = (await response.json()) as { id: string };
  if (response.status !== 202) throw new Error(`upload answered ${response.status}: ${JSON.stringify(accepted)}`);
  const uploaded = performance.now();
  let summary: { state: string; counts: Record<string, number>; kinds: object; error: string | null };
  for (;;) {
    const poll = await fetch(`${platform.gatewayUrl}/api/imports/${accepted.id}`, { headers: { authorization: `Bearer ${key}` } });
    summary = (await poll.json()) as typeof summary;
    if (summary.state !== "queued" && summary.state !== "reading") break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const read = performance.now();
  clearInterval(sampler);
  const final = await memoryOf(pid);
  if (final) peak = Math.max(peak, final.peakMb);

  const uploadS = (uploaded - started) / 1000;
  const readS = (read - uploaded) / 1000;
  const rows = summary.counts["read"] ?? 0;
  const growth = (peak - idle) / 1.048576;
  const results = {
    mib: bytes / MIB, years, generated: counts, uploadSeconds: uploadS, readSeconds: readS, state: summary.state, error: summary.error,
    counts: summary.counts, kinds: summary.kinds, rowsPerSecond: rows / readS, elementsPerSecond: counts.elements / readS,
    mibPerSecond: bytes / MIB / readS, importsRssMb: { idle, peak }, rssGrowthMib: growth,
  };
  console.log(`${round(bytes / MIB)} MiB, ${counts.elements} elements (${counts.heartRates} heart rate, ${counts.weighIns} weigh-ins, ${counts.waist} waist, ${counts.workouts} workouts)`);
  console.log(`upload ${round(uploadS)} s; read ${round(readS)} s: ${summary.state}${summary.error ? ` (${summary.error})` : ""}`);
  console.log(`${round(rows / readS)} rows/s, ${round(counts.elements / readS)} elements/s, ${round(bytes / MIB / readS)} MiB/s; counts ${JSON.stringify(summary.counts)}`);
  console.log(`imports RSS ${idle} MB idle, ${peak} MB at most: +${round(growth)} MiB  ${growth < 200 ? "PASS" : "MISS"} (aim < 200 MiB)`);
  console.log(`\nresults: ${await writeResults("apple-health", { at: new Date().toISOString(), machine: machine(), reader, upload: results })}`);
});
