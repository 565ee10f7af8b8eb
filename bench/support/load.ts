import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { trackChild } from "./cleanup.ts";
import { LOAD_CPU, pinned } from "./cpu.ts";
import { cpuSample, cpuSpent, type CpuOwner } from "./proc.ts";
import { runWrk, wrkAvailable } from "./wrk.ts";

export interface LoadSpec {
  url: string;
  method: "GET" | "POST" | "PUT";
  headers?: Record<string, string>;
  /** Headers taken by each request in turn on top of `headers` (an API key per account: writes spread over many). */
  headerSets?: Record<string, string>[];
  body?: string;
  connections: number;
  /** Seconds. */
  duration: number;
  /**
   * Requests per second at evenly spaced moments (an open loop over at most `connections` connections: a request
   * due while all are busy waits for one, and that wait counts in its latency); unset, each connection sends as
   * fast as it is answered.
   */
  ratePerSec?: number;
  /** One request after another, timed to 0.01 ms (`connections` must be 1). */
  sequential?: boolean;
  /** With `ratePerSec`: seconds sent at that rate first, uncounted, by the same client (see measure). */
  warmupSeconds?: number;
  /** The timed sender returns every 2xx's latency too, so runs can be pooled before a percentile is taken. */
  keepLatencies?: boolean;
}

/** What a phase reports; latencies in ms (autocannon records whole ms of 2xx responses; wrk every response, to the µs). */
export interface LoadFigures {
  /** 2xx responses per second: a fast stream of 429s or 503s is no throughput. */
  okPerSec: number;
  p50: number;
  p99: number;
  requests: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  /** CPU time each watched server process spent per request during the measured run (ms). */
  cpuMsPerRequest?: Record<string, number>;
  /** Each 2xx's latency (ms), with `keepLatencies`. */
  latencies?: number[];
}

/**
 * Server processes whose CPU time a measured run accounts for, by name: the platform's and the bare server's pids,
 * and PostgreSQL's and NATS's processes by command, so the database and broker work a request causes is counted.
 */
export type Watched = Record<string, CpuOwner>;

/** PostgreSQL and NATS, every process of each: what the database and broker do for a request is its cost too. */
export const SHARED_SERVERS: Watched = { postgres: "postgres", nats: "nats-server" };

const sampleCpu = (watched: Watched) => Promise.all(Object.values(watched).map(cpuSample));

/** What `work` gives, and the CPU time (ms) each watched server spent while it ran. */
export const cpuDuring = async <T>(watched: Watched, work: () => Promise<T>) => {
  const before = await sampleCpu(watched);
  const result = await work();
  const after = await sampleCpu(watched);
  return { result, spentMs: Object.fromEntries(Object.keys(watched).map((name, i) => [name, cpuSpent(before[i]!, after[i]!)])) };
};

const workers = {
  closed: fileURLToPath(new URL("./autocannon-worker.ts", import.meta.url)),
  timed: fileURLToPath(new URL("./timed-worker.ts", import.meta.url)),
};

/**
 * Runs the load in a process of its own on the load CPU: wrk (or autocannon without it) for as-fast-as-answered
 * connections, the timed sender for a steady rate or one request at a time.
 */
const runLoad = (spec: LoadSpec): Promise<LoadFigures> => {
  const closed = spec.ratePerSec === undefined && !spec.sequential;
  return closed && wrkAvailable ? runWrk(spec) : runNodeLoad(spec, closed ? workers.closed : workers.timed);
};

const runNodeLoad = (spec: LoadSpec, worker: string): Promise<LoadFigures> =>
  new Promise((resolve, reject) => {
    // Above the rest of the load CPU (agent callers, a coach placed there): what delays the sender is not the server's.
    const [command, args] = pinned(LOAD_CPU, process.execPath, ["--import", "tsx", worker, JSON.stringify(spec)], -10);
    const child = trackChild(spawn(command, args, { stdio: ["ignore", "pipe", "inherit"] }));
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
    child.once("error", reject);
    child.once("exit", (code, signal) => {
      if (code === 0) resolve(JSON.parse(out) as LoadFigures);
      else reject(new Error(`the load worker exited with ${signal ?? code}`));
    });
  });

/**
 * A short unmeasured run first (JIT, connection pools and PostgreSQL's caches warm up), then the measured one,
 * with the CPU time each watched process spent on it: on a saturated server that is where the time goes.
 */
export const measure = async (spec: LoadSpec, warmupSeconds: number, watched: Watched = {}): Promise<LoadFigures> => {
  // A steady-rate run warms up in its own sender, so its measured requests reuse the warm-up's connections.
  const steady = spec.ratePerSec !== undefined;
  if (warmupSeconds > 0 && !steady) await runLoad({ ...spec, duration: warmupSeconds });
  const { result: figures, spentMs } = await cpuDuring(watched, () => runLoad(steady ? { ...spec, warmupSeconds } : spec));
  // The CPU time spans a steady run's warm-up too, sent at the same rate.
  const requests = figures.requests + (steady ? Math.round((spec.ratePerSec ?? 0) * warmupSeconds) : 0);
  const perRequest = Object.entries(spentMs).map(([name, ms]) => [name, Math.round((ms / requests) * 100) / 100]);
  return { ...figures, cpuMsPerRequest: Object.fromEntries(perRequest) };
};

/** Below this share of one core, all watched processes together, the platform counts as idle. */
const QUIET_CORE_SHARE = 0.05;
const QUIET_WINDOW_MS = 500;
/**
 * How long a phase waits for an idle platform before it runs on a busy one. 30 s was too short once PostgreSQL
 * was watched: after 50 connections of food writes, the consumers' backlog took longer, and the bare select
 * measured beside it came out slow.
 */
export const QUIET_MAX_MS = 120_000;

/**
 * Waits until the watched processes are idle (a consumer still working through the events of the phase before,
 * an outbox draining), so a phase measures its own load only, not the tail of the last one. The ms it waited, or
 * null when they were still busy after QUIET_MAX_MS: the phase then runs on a busy platform.
 */
export const untilQuiet = async (watched: Watched): Promise<number | null> => {
  const started = performance.now();
  let before = await sampleCpu(watched);
  while (performance.now() - started < QUIET_MAX_MS) {
    await new Promise((resolve) => setTimeout(resolve, QUIET_WINDOW_MS));
    const now = await sampleCpu(watched);
    if (now.reduce((sum, after, i) => sum + cpuSpent(before[i]!, after), 0) < QUIET_WINDOW_MS * QUIET_CORE_SHARE) return performance.now() - started;
    before = now;
  }
  return null;
};

/** Every request answered 2xx: otherwise the phase measured failures, not the path. */
export const clean = (f: LoadFigures) => f.errors === 0 && f.timeouts === 0 && f.non2xx === 0;
