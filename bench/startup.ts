// pnpm bench:startup [--quick]
// The embedded default as a user starts it (`pnpm start`, compiled, PGlite + in-process bus): time to /readyz on
// a fresh data folder and again on the data it left, and memory (VmRSS) of the node process and of the whole
// process tree (pnpm included) after start and after a short load through HTTP (weigh-ins and food items
// written, dashboards read). Beside it, for the record: the node process alone, `npx -y pnpm@10 start`, whose
// own start-up (npm resolving pnpm, ~2.8 s) is not ours to cut, and `bin/start`, which skips npx and pnpm. Aims: docs/decisions/0026-compiled-runtime.md.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { adminSocketPath, requestAccountKey } from "@fit/gateway";
import { onCleanup, runBenchmark, trackChild } from "./support/cleanup.ts";
import { memoryOf } from "./support/proc.ts";
import { aimTable, fixed, table, writeResults, type Aim } from "./support/report.ts";
import { freePort, ROOT } from "./support/services.ts";

const CLOCK_TICKS = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout) || 100;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const round1 = (n: number) => Math.round(n * 10) / 10;

/** Every process under `root` (itself included), from /proc's parent links. */
const processTree = async (root: number) => {
  const parents = new Map<number, number>();
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, "utf8").catch(() => null);
    if (stat) parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) for (const [pid, parent] of parents) if (parent === tree[i]) tree.push(pid);
  return tree;
};

/** The node process running the launcher's bundle, somewhere under `root`. */
const launcherPid = async (root: number) => {
  for (const pid of await processTree(root)) {
    const cmdline = await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "");
    if (cmdline.split("\0").includes("launcher/dist/all-in-one.js")) return pid; // node itself, not pnpm's `sh -c`
  }
  return undefined;
};

/** How long ago `pid` started, in ms (its start time in /proc/<pid>/stat, in clock ticks after boot). */
const ageMs = async (pid: number) => {
  const [stat, uptime] = await Promise.all([readFile(`/proc/${pid}/stat`, "utf8"), readFile("/proc/uptime", "utf8")]);
  const startTicks = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]);
  return Number(uptime.split(" ")[0]) * 1000 - (startTicks * 1000) / CLOCK_TICKS;
};

/** VmRSS in MB of the launcher's node process and of every process of the tree together. */
const memory = async (root: number, node: number) => {
  const all = await Promise.all((await processTree(root)).map(memoryOf));
  return { nodeMb: (await memoryOf(node))?.rssMb ?? NaN, treeMb: round1(all.reduce((sum, m) => sum + (m?.rssMb ?? 0), 0)) };
};

const NPX = ["npx", "-y", "pnpm@10", "start"];
/** `pnpm start` when pnpm is on PATH (as after `npm i -g pnpm` or corepack), else what the README's quick start types. */
const judged = spawnSync("pnpm", ["--version"], { stdio: "ignore" }).status === 0 ? ["pnpm", "start"] : NPX;

/** Starts `command` on `dataDir`; resolves once /readyz answers 200, with the time it took. */
const start = async (dataDir: string, port: number, [program = "pnpm", ...args]: string[] = judged) => {
  const env: NodeJS.ProcessEnv = {
    ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: "warn",
    // One account sends the whole load (800 requests in the full run): the per-account limit (600/min by default)
    // would answer the rest with 429, and a run with failures judges nothing.
    RATE_LIMIT_PER_MINUTE: "1000000000",
  };
  delete env["DATABASE_URL"];
  delete env["NATS_URL"];
  const began = performance.now();
  // Its own process group, so stopping it stops npx, pnpm and node together.
  const child = trackChild(spawn(program, args, { cwd: ROOT, env, detached: true, stdio: ["ignore", "ignore", "pipe"] }));
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => void (stderr = (stderr + chunk.toString()).slice(-4_000)));
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`pnpm start exited with ${child.exitCode}:\n${stderr}`);
    if (performance.now() - began > 180_000) throw new Error(`pnpm start not ready within 180 s:\n${stderr}`);
    const ready = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2_000) }).then((r) => r.ok, () => false);
    if (ready) break;
    await sleep(50);
  }
  const readyMs = performance.now() - began;
  const node = await launcherPid(child.pid ?? -1);
  if (!node) throw new Error("no node process runs launcher/dist/all-in-one.js under pnpm start");
  // From the node process's own start, without what npx and pnpm took to start it (nor this lookup).
  const nodeReadyMs = (await ageMs(node)) - (performance.now() - began - readyMs);
  return { child, url, node, readyMs, nodeReadyMs };
};

const stop = async (child: ChildProcess) => {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  process.kill(-(child.pid ?? 0), "SIGTERM");
  await exited;
};

/** `writes` weigh-ins and as many food items, then `reads` dashboards, 8 requests at a time. */
const load = async (url: string, key: string, writes: number, reads: number) => {
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const today = new Date().toISOString().slice(0, 10);
  const requests: (() => Promise<Response>)[] = [];
  for (let i = 0; i < writes; i++) {
    requests.push(() => fetch(`${url}/api/weight`, { method: "POST", headers, body: JSON.stringify({ weightKg: 70 + (i % 100) / 10 }) }));
    requests.push(() =>
      fetch(`${url}/api/nutrition/items`, { method: "POST", headers, body: JSON.stringify({ date: today, name: `item ${i}`, kcal: 100 + i, proteinG: 5 }) }),
    );
  }
  for (let i = 0; i < reads; i++) requests.push(() => fetch(`${url}/api/dashboard?date=${today}`, { headers }));
  let failed = 0;
  const began = performance.now();
  const worker = async () => {
    for (let next = requests.shift(); next; next = requests.shift()) {
      const response = await next();
      await response.arrayBuffer();
      if (!response.ok) failed++;
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return { requests: 2 * writes + reads, failed, seconds: (performance.now() - began) / 1000 };
};

export interface StartupFigures {
  /** The command judged: `pnpm start`, or `npx -y pnpm@10 start` when pnpm is not on PATH. */
  command: string;
  /** readyMs: from the command; nodeReadyMs: from the node process's start. */
  fresh: { readyMs: number; nodeReadyMs: number; afterStart: { nodeMb: number; treeMb: number }; afterLoad: { nodeMb: number; treeMb: number } };
  existing: { readyMs: number; nodeReadyMs: number; afterStart: { nodeMb: number; treeMb: number } };
  /** `npx -y pnpm@10 start` on the same existing data, for comparison (npm's own start-up included). */
  npxExisting: { readyMs: number; nodeReadyMs: number };
  /** `bin/start` on the same existing data: node started by the shell, no npx or pnpm. */
  binExisting: { readyMs: number; nodeReadyMs: number };
  load: { requests: number; failed: number; seconds: number };
  aims: Aim[];
}

/** Runs the whole measurement (`quick`: a smaller load) and returns the figures; prints nothing. */
export const measureStartup = async ({ quick = false }: { quick?: boolean } = {}): Promise<StartupFigures> => {
  const dataDir = await mkdtemp(join(tmpdir(), "fit-bench-startup-"));
  onCleanup(() => rm(dataDir, { recursive: true, force: true }));
  const port = await freePort();

  const first = await start(dataDir, port);
  await sleep(1_000); // what start-up left behind, not its transient peak
  const freshStart = await memory(first.child.pid ?? -1, first.node);
  const issued = await requestAccountKey(adminSocketPath(dataDir), "startup@bench.example.com");
  if (!issued) throw new Error("the gateway's admin socket did not answer");
  const loaded = await load(first.url, issued.key, quick ? 100 : 300, quick ? 50 : 200);
  const freshLoad = await memory(first.child.pid ?? -1, first.node);
  await stop(first.child);

  const second = await start(dataDir, port);
  await sleep(1_000);
  const existingStart = await memory(second.child.pid ?? -1, second.node);
  await stop(second.child);

  const viaNpx = await start(dataDir, port, NPX);
  await stop(viaNpx.child);
  const viaBin = await start(dataDir, port, ["bin/start"]);
  await stop(viaBin.child);

  const worstMb = Math.max(freshStart.nodeMb, freshLoad.nodeMb, existingStart.nodeMb);
  return {
    command: judged.join(" "),
    npxExisting: { readyMs: Math.round(viaNpx.readyMs), nodeReadyMs: Math.round(viaNpx.nodeReadyMs) },
    binExisting: { readyMs: Math.round(viaBin.readyMs), nodeReadyMs: Math.round(viaBin.nodeReadyMs) },
    fresh: { readyMs: Math.round(first.readyMs), nodeReadyMs: Math.round(first.nodeReadyMs), afterStart: freshStart, afterLoad: freshLoad },
    existing: { readyMs: Math.round(second.readyMs), nodeReadyMs: Math.round(second.nodeReadyMs), afterStart: existingStart },
    load: { ...loaded, seconds: round1(loaded.seconds) },
    aims: [
      { what: "node process ready, fresh data folder", value: `${fixed(first.nodeReadyMs / 1000)} s`, aim: "< 2 s (aim 1 s)", met: first.nodeReadyMs < 2_000 },
      { what: "node process ready, existing data", value: `${fixed(second.nodeReadyMs / 1000)} s`, aim: "< 1 s (aim 0.5 s)", met: second.nodeReadyMs < 1_000 },
      { what: "npx -y pnpm@10 start ready, existing data", value: `${fixed(viaNpx.readyMs / 1000)} s`, aim: "< 3 s (aim 2 s)", met: viaNpx.readyMs < 3_000 },
      { what: "node RSS, after start and load", value: `${fixed(worstMb, 0)} MB`, aim: "< 150 MB (aim 120)", met: loaded.failed ? null : worstMb < 150 },
    ],
  };
};

const main = async () => {
  const { values } = parseArgs({ args: process.argv.slice(2).filter((a) => a !== "--"), options: { quick: { type: "boolean", default: false } } });
  const figures = await measureStartup({ quick: values.quick });
  const { command, fresh, existing, npxExisting, binExisting, load: l } = figures;
  if (command !== "pnpm start") console.log("pnpm is not on PATH: judging `npx -y pnpm@10 start` instead of `pnpm start`\n");
  console.log(
    table([
      ["phase", "ready s", "node ready s", "node RSS MB", "tree RSS MB", "what"],
      ["fresh start", fixed(fresh.readyMs / 1000), fixed(fresh.nodeReadyMs / 1000), fresh.afterStart.nodeMb, fresh.afterStart.treeMb, `${command} on an empty DATA_DIR`],
      ["after load", "", "", fresh.afterLoad.nodeMb, fresh.afterLoad.treeMb, `${l.requests} requests in ${l.seconds} s, ${l.failed} failed`],
      ["existing start", fixed(existing.readyMs / 1000), fixed(existing.nodeReadyMs / 1000), existing.afterStart.nodeMb, existing.afterStart.treeMb, "the same DATA_DIR again"],
      ["existing, npx", fixed(npxExisting.readyMs / 1000), fixed(npxExisting.nodeReadyMs / 1000), "", "", "npx -y pnpm@10 start on it, npm's start-up included"],
      ["existing, bin/start", fixed(binExisting.readyMs / 1000), fixed(binExisting.nodeReadyMs / 1000), "", "", "bin/start on it: no npx, no pnpm"],
    ]),
  );
  console.log(`\n${aimTable(figures.aims)}`);
  console.log(`\nwritten to ${await writeResults("startup", figures)}`);
};

if (import.meta.url === `file://${process.argv[1]}`) await runBenchmark(main);
