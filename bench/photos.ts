// pnpm bench:photos [--count 16] [--threads 2]
// The on-device photo reader (docs/decisions/0079-photographed-logs.md) over a corpus it renders itself
// (test/support/photo-corpus.ts): console screens and nutrition labels with known numbers, in four fonts and
// several sizes, clean and degraded (rotated a few degrees, noise, blur, low JPEG quality). Each photo goes
// through what the routes run (bounds and re-encoding, OCR on the reading threads, the parser) in this process.
// Prints per kind and condition: right (every number right), flagged (a wrong or absent number is listed in
// lowConfidence), refused (the route's 422) and silent (a wrong number not flagged: must be 0); time per photo
// (p50, p99), the process's RSS (it holds the OCR threads) and what one reading thread holds. Aims: right ≥ 90 % clean, ≥ 70 % degraded.
import { parseArgs } from "node:util";
import { createOcrPool, preparePhoto } from "@fit/photos";
import { labelEstimate, readLabel } from "../services/nutrition/src/domain/photo-label.ts";
import { readScreen } from "../services/workouts/src/domain/photo-workout.ts";
import { CLEAN, FONTS, consolePhoto, labelPhoto, randomConsole, randomLabel, seeded, type Degradation } from "../test/support/photo-corpus.ts";
import { machine } from "./support/machine.ts";
import { aimTable, fixed, table, writeResults } from "./support/report.ts";
import { percentile } from "./support/stats.ts";

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== "--"),
  options: { count: { type: "string", default: "16" }, threads: { type: "string", default: "2" } },
});
const count = Number(values.count);
const threads = Number(values.threads);
if (!Number.isInteger(count) || count < 1 || count > 500) throw new Error("--count must be a whole number from 1 to 500");
if (!Number.isInteger(threads) || threads < 1 || threads > 8) throw new Error("--threads must be a whole number from 1 to 8");

type Outcome = "right" | "flagged" | "refused" | "silent";
const MIN_CONFIDENCE = 45;

const degraded = (random: () => number): Degradation => ({
  rotateDeg: (random() < 0.5 ? -1 : 1) * (1 + random() * 2.5),
  noise: 20 + Math.round(random() * 30),
  blur: 0.5 + random() * 0.5,
  quality: 30 + Math.round(random() * 30),
});

const random = seeded(2026);
const ocr = createOcrPool({ threads, queue: 1000 });
const rssBefore = process.memoryUsage().rss;
let rssPeak = rssBefore;
const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 50);

interface Case {
  kind: "console" | "label";
  condition: "clean" | "degraded";
  run: () => Promise<Outcome>;
}

const consoleCase = (condition: Case["condition"], i: number): Case => {
  const truth = randomConsole(random);
  const degradation = condition === "clean" ? CLEAN : degraded(random);
  const font = FONTS[i % FONTS.length]!;
  const sizePt = 18 + ((i * 5) % 14);
  return {
    kind: "console", condition,
    run: async () => {
      const read = await ocr.read((await preparePhoto(await consolePhoto(truth, { font, sizePt, degradation, seed: i }))).png);
      if (read.confidence < MIN_CONFIDENCE) return "refused";
      const { workout, lowConfidence } = readScreen(read.lines);
      if (workout.durationS === null) return "refused";
      const expected = { durationS: truth.durationS, distanceM: Math.round(truth.distanceKm * 1000), energyKcal: truth.kcal, avgHr: truth.avgHr };
      const wrong = (Object.keys(expected) as (keyof typeof expected)[]).filter((field) => workout[field] !== expected[field]);
      if (wrong.length === 0) return "right";
      return wrong.every((field) => (lowConfidence as string[]).includes(field)) ? "flagged" : "silent";
    },
  };
};

const labelCase = (condition: Case["condition"], i: number): Case => {
  const truth = randomLabel(random);
  const degradation = condition === "clean" ? CLEAN : degraded(random);
  const font = FONTS[(i + 1) % FONTS.length]!;
  const sizePt = 18 + ((i * 7) % 14);
  const grams = 50;
  return {
    kind: "label", condition,
    run: async () => {
      const read = await ocr.read((await preparePhoto(await labelPhoto(truth, { font, sizePt, degradation, seed: i }))).png);
      if (read.confidence < MIN_CONFIDENCE) return "refused";
      const label = readLabel(read.lines);
      const estimate = labelEstimate(label, truth.layout === "eu" ? { grams } : {}, "ocr");
      if ("missing" in estimate) return "refused";
      const factor = truth.layout === "eu" ? grams / 100 : 1;
      const close = (a: number, b: number) => Math.abs(a - b) < 0.051;
      const wrong = [
        close(estimate.kcal, Math.round(truth.kcal * factor * 10) / 10) ? null : "kcal",
        close(estimate.proteinG, Math.round(truth.proteinG * factor * 10) / 10) ? null : "proteinG",
      ].filter((field) => field !== null);
      if (wrong.length === 0) return "right";
      return wrong.every((field) => label.lowConfidence.includes(field)) ? "flagged" : "silent";
    },
  };
};

const cases: Case[] = [];
for (const condition of ["clean", "degraded"] as const) {
  for (let i = 0; i < count; i++) cases.push(consoleCase(condition, i), labelCase(condition, i));
}

const results: { kind: string; condition: string; outcome: Outcome; ms: number }[] = [];
const started = performance.now();
// As many photos at once as there are reading threads, so a photo's time is its own, never a wait in the queue.
const pending = [...cases];
await Promise.all(
  Array.from({ length: threads }, async () => {
    for (let next = pending.shift(); next; next = pending.shift()) {
      const t0 = performance.now();
      const outcome = await next.run().catch(() => "refused" as const);
      results.push({ kind: next.kind, condition: next.condition, outcome, ms: performance.now() - t0 });
    }
  }),
);
const wallS = (performance.now() - started) / 1000;
clearInterval(sampler);
await ocr.close();
// The reading threads live in this process: what they hold is the process's peak less what it held before any started.
const threadsMb = (rssPeak - rssBefore) / 2 ** 20;
const rssAfterClose = process.memoryUsage().rss;

const rows: (string | number)[][] = [["kind", "condition", "photos", "right %", "flagged", "refused (422)", "silent wrong"]];
const cells: Record<string, { right: number; total: number; silent: number }> = {};
for (const kind of ["console", "label"]) {
  for (const condition of ["clean", "degraded"]) {
    const group = results.filter((r) => r.kind === kind && r.condition === condition);
    const n = (outcome: Outcome) => group.filter((r) => r.outcome === outcome).length;
    cells[`${kind} ${condition}`] = { right: n("right"), total: group.length, silent: n("silent") };
    rows.push([kind, condition, group.length, fixed((100 * n("right")) / group.length), n("flagged"), n("refused"), n("silent")]);
  }
}
const share = (condition: string) => {
  const groups = Object.entries(cells).filter(([name]) => name.endsWith(condition)).map(([, c]) => c);
  return (100 * groups.reduce((s, c) => s + c.right, 0)) / groups.reduce((s, c) => s + c.total, 0);
};
const times = results.map((r) => r.ms);
const silent = results.filter((r) => r.outcome === "silent").length;
const figures = {
  machine: machine(),
  threads,
  photos: results.length,
  wallS,
  perPhotoMs: { p50: percentile(times, 50), p99: percentile(times, 99) },
  rssMb: { before: rssBefore / 2 ** 20, peak: rssPeak / 2 ** 20, readingThreads: threadsMb, perReadingThread: threadsMb / threads, afterClose: rssAfterClose / 2 ** 20 },
  cells,
};
console.log(table(rows));
console.log();
console.log(
  table([
    ["photos", "threads", "wall s", "photos/s", "p50 ms", "p99 ms", "RSS before MB", "RSS peak MB", "reading thread RSS MB", "RSS after close MB"],
    [
      results.length, threads, fixed(wallS), fixed(results.length / wallS, 2), fixed(figures.perPhotoMs.p50, 0), fixed(figures.perPhotoMs.p99, 0),
      fixed(figures.rssMb.before, 0), fixed(figures.rssMb.peak, 0), fixed(figures.rssMb.perReadingThread, 0), fixed(figures.rssMb.afterClose, 0),
    ],
  ]),
);
console.log("(time per photo: rendering, re-encoding, OCR and parsing of one photo, while the other threads read others;");
console.log(" reading thread RSS: (peak − before) / threads, what one OCR thread with its model holds while it reads)");
console.log();
console.log(
  aimTable([
    { what: "right, clean renders", value: `${fixed(share("clean"))} %`, aim: "≥ 90 %", met: share("clean") >= 90 },
    { what: "right, degraded renders", value: `${fixed(share("degraded"))} %`, aim: "≥ 70 %", met: share("degraded") >= 70 },
    { what: "silent wrong numbers", value: `${silent}`, aim: "0", met: silent === 0 },
  ]),
);
await writeResults("photos", figures);
