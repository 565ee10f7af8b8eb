// pnpm bench:imports [--uploads 40]
// What an activity import can cost (docs/security.md §25): the worst files of up to 10 MiB one can make, each read
// by the workouts service's reader (its worker thread, its caps) in this process, with the process's extra RSS
// and the time taken; then `--uploads` concurrent 10 MiB uploads through the gateway of the multi-process platform
// (PostgreSQL + NATS), with the gateway's RSS while they run. Aims: under 256 MiB extra and 10 s per file, and
// the gateway under 300 MiB.
import { writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { createActivityFileReader } from "../services/workouts/src/reader/activity-file-reader.ts";
import { makeFit, makeGpx, straightTrack, type TrackPoint } from "../packages/activity-files/test/support/activity-files.ts";
import { runBenchmark } from "./support/cleanup.ts";
import { createBenchDatabase } from "./support/database.ts";
import { machine } from "./support/machine.ts";
import { memoryOf } from "./support/proc.ts";
import { writeResults } from "./support/report.ts";
import { startPlatform } from "./support/services.ts";

const { values } = parseArgs({ args: process.argv.slice(2).filter((a) => a !== "--"), options: { uploads: { type: "string", default: "40" } } });
const uploads = Number(values.uploads);
if (!Number.isInteger(uploads) || uploads < 1 || uploads > 200) throw new Error("--uploads must be a whole number from 1 to 200");

const LIMIT = 10 * 1024 * 1024;
const MIB = 1024 * 1024;
const START = new Date("2026-11-17T06:00:00Z");

/** `unit` repeated between `head` and `tail` to just under 10 MiB. */
const filled = (head: string, unit: string, tail: string) =>
  Buffer.from(head + unit.repeat(Math.floor((LIMIT - head.length - tail.length) / unit.length)) + tail);
const gpxHead = `<?xml version="1.0"?><gpx xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>`;
const gpxTail = `</trkseg></trk></gpx>`;
const iso = (i: number) => new Date(START.getTime() + i * 1000).toISOString();

const worstFiles = (): Record<string, () => Buffer> => ({
  "deep nesting": () => Buffer.from(gpxHead + "<a>".repeat((LIMIT - 200) / 3)),
  "millions of empty elements": () => filled(gpxHead, "<a/>", gpxTail),
  "64 attributes on every element": () => filled(gpxHead, `<x ${Array.from({ length: 64 }, (_, i) => `a${i}="1"`).join(" ")}/>`, gpxTail),
  "one 10 MiB text": () => filled(`${gpxHead}<desc>`, "x", `</desc>${gpxTail}`),
  "texts of 64 Ki characters": () => filled(gpxHead, `<desc>${"x".repeat(65_536)}</desc>`, gpxTail),
  "attributes of 4 KiB": () => filled(gpxHead, `<x a="${"1".repeat(4096)}"/>`, gpxTail),
  "250 000 tiny points, no time": () => Buffer.from(gpxHead + '<trkpt lat="1.5" lon="2.5"/>'.repeat(250_000) + gpxTail),
  "250 001 tiny points": () => Buffer.from(gpxHead + '<trkpt lat="1" lon="2"/>'.repeat(250_001) + gpxTail),
  "timed points to 10 MiB": () => {
    const points: string[] = [];
    let bytes = gpxHead.length + gpxTail.length;
    for (let i = 0; ; i++) {
      const point = `<trkpt lat="${(52 + i * 1e-5).toFixed(5)}" lon="13.4"><time>${iso(i)}</time></trkpt>`;
      if (bytes + point.length > LIMIT || i >= 250_000) break;
      points.push(point);
      bytes += point.length;
    }
    return Buffer.from(gpxHead + points.join("") + gpxTail);
  },
  "TCX trackpoints to 10 MiB": () =>
    filled(
      `<TrainingCenterDatabase><Activities><Activity Sport="Running"><Lap StartTime="${iso(0)}"><Track>`,
      `<Trackpoint><Time>${iso(1)}</Time><Position><LatitudeDegrees>52.5</LatitudeDegrees><LongitudeDegrees>13.4</LongitudeDegrees></Position><HeartRateBpm><Value>150</Value></HeartRateBpm></Trackpoint>`,
      `</Track></Lap></Activity></Activities></TrainingCenterDatabase>`,
    ),
  "FIT of 250 000 full records": () => {
    const points: TrackPoint[] = straightTrack({ start: START, points: 250_000, stepM: 3, stepS: 1, startEle: 40, hr: 150 });
    return Buffer.from(makeFit({ sport: "running", start: START, elapsedS: 0, timerS: 0, distanceM: 0, points: points.map((p) => ({ ...p, cadence: 80, powerW: 200 })), withoutSession: true }));
  },
});

const gc = (globalThis as { gc?: () => void }).gc;

/**
 * Reads one file on a fresh reader (one thread, as the service runs it). The process's high-water mark is reset
 * first (Linux's clear_refs), so the peak is this file's alone, however briefly it was held and whatever memory an
 * earlier file freed and the process kept.
 */
const measureFile = async (bytes: Buffer) => {
  const reader = createActivityFileReader({ threads: 1, queue: 0 });
  await reader.read(Buffer.from(makeGpx(straightTrack({ start: START, points: 10, stepM: 3, stepS: 1 }))));
  gc?.();
  await writeFile("/proc/self/clear_refs", "5");
  const before = (await memoryOf(process.pid))!.rssMb;
  const started = performance.now();
  const outcome = await reader.read(bytes).then(
    () => "read",
    (error: unknown) => `${(error as { status?: number }).status ?? 500} ${(error as Error).message}`,
  );
  const ms = performance.now() - started;
  const after = (await memoryOf(process.pid))!;
  const peak = Math.max(after.peakMb, after.rssMb); // the kernel updates the mark lazily
  await reader.close();
  return { mib: bytes.length / MIB, outcome, seconds: ms / 1000, extraRssMib: (peak - before) / 1.048576 };
};

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

await runBenchmark(async () => {
  console.log("activity files: the worst of up to 10 MiB, each read by the workouts reader (aim: < 256 MiB extra RSS, < 10 s)\n");
  const files: Record<string, Awaited<ReturnType<typeof measureFile>>> = {};
  for (const [name, make] of Object.entries(worstFiles())) {
    const result = await measureFile(make());
    files[name] = result;
    const verdict = result.extraRssMib < 256 && result.seconds < 10 ? "PASS" : "MISS";
    console.log(`${name.padEnd(34)} ${round(result.mib, 2).toString().padStart(6)} MiB  ${round(result.seconds, 2).toString().padStart(6)} s  +${round(result.extraRssMib).toString().padStart(6)} MiB RSS  ${verdict}  ${result.outcome}`);
  }

  console.log(`\n${uploads} concurrent uploads of a 10 MiB GPX through the gateway (aim: gateway < 300 MiB RSS)`);
  const db = await createBenchDatabase();
  const platform = await startPlatform(db.url);
  const { key } = await platform.account("imports");
  const long = Buffer.from(makeGpx(straightTrack({ start: START, points: 46_000, stepM: 5, stepS: 1, startEle: 100, climbPerStepM: 0.01, hr: 140 }), { type: "cycling" }));
  const gatewayPid = platform.pids["gateway"]!;
  const workoutsPid = platform.pids["workouts"]!;
  const idle = { gateway: (await memoryOf(gatewayPid))?.rssMb, workouts: (await memoryOf(workoutsPid))?.rssMb };
  const started = performance.now();
  const statuses = await Promise.all(
    Array.from({ length: uploads }, async () => {
      const response = await fetch(`${platform.gatewayUrl}/api/workouts/import`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/gpx+xml" },
        body: long,
      }).catch(() => null);
      await response?.arrayBuffer();
      return response?.status ?? "failed";
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  // VmHWM: the most each process has held since it started, which the uploads are the only load of.
  const gatewayPeak = (await memoryOf(gatewayPid))?.peakMb ?? Number.NaN;
  const workoutsPeak = (await memoryOf(workoutsPid))?.peakMb ?? Number.NaN;
  const tally: Record<string, number> = {};
  for (const status of statuses) tally[status] = (tally[status] ?? 0) + 1;
  const upload = { uploads, mib: long.length / MIB, seconds, statuses: tally, idleRssMb: idle, peakRssMb: { gateway: gatewayPeak, workouts: workoutsPeak } };
  console.log(`${round(upload.mib, 2)} MiB each, ${round(seconds, 2)} s; answers ${JSON.stringify(tally)}`);
  console.log(`gateway RSS ${idle.gateway} MB idle, ${gatewayPeak} MB at most  ${gatewayPeak < 300 * 1.048576 ? "PASS" : "MISS"}`);
  console.log(`workouts RSS ${idle.workouts} MB idle, ${workoutsPeak} MB at most`);
  console.log(`\nresults: ${await writeResults("imports", { at: new Date().toISOString(), machine: machine(), files, upload })}`);
});
