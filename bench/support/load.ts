import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { trackChild } from "./cleanup.ts";
import { LOAD_CPU, pinned } from "./cpu.ts";

export interface LoadSpec {
  url: string;
  method: "GET" | "POST" | "PUT";
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  /** Seconds. */
  duration: number;
}

/** What a phase reports; latencies in ms (autocannon records whole ms, 2xx responses only). */
export interface LoadFigures {
  reqPerSec: number;
  p50: number;
  p99: number;
  requests: number;
  errors: number;
  timeouts: number;
  non2xx: number;
}

const worker = fileURLToPath(new URL("./autocannon-worker.ts", import.meta.url));

/** Runs autocannon in a process of its own on the load CPU and hands back its figures. */
export const runLoad = (spec: LoadSpec): Promise<LoadFigures> =>
  new Promise((resolve, reject) => {
    const [command, args] = pinned(LOAD_CPU, process.execPath, ["--import", "tsx", worker, JSON.stringify(spec)]);
    const child = trackChild(spawn(command, args, { stdio: ["ignore", "pipe", "inherit"] }));
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
    child.once("error", reject);
    child.once("exit", (code, signal) => {
      if (code === 0) resolve(JSON.parse(out) as LoadFigures);
      else reject(new Error(`autocannon exited with ${signal ?? code}`));
    });
  });

/** A short unmeasured run first: JIT, connection pools and PostgreSQL's caches warm up before the figures count. */
export const measure = async (spec: LoadSpec, warmupSeconds: number): Promise<LoadFigures> => {
  if (warmupSeconds > 0) await runLoad({ ...spec, duration: warmupSeconds });
  return runLoad(spec);
};
