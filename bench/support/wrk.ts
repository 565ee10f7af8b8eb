// Closed-loop load with wrk, as an outsider measures (docs/performance.md, "How the bench measures"): a C client
// on its own core costs less CPU per request than autocannon in Node, so the load generator is never what limits
// the bare server. Used when `wrk` is on PATH (Debian's `wrk` package) unless BENCH_LOAD=autocannon.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { trackChild } from "./cleanup.ts";
import { LOAD_CPU, pinned } from "./cpu.ts";
import type { LoadFigures, LoadSpec } from "./load.ts";

export const wrkAvailable =
  process.env.BENCH_LOAD !== "autocannon" && spawnSync("wrk", ["--version"], { stdio: "ignore" }).error === undefined;

const luaString = (text: string) => `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`;

const luaTable = (headers: Record<string, string>) =>
  `{ ${Object.entries(headers).map(([name, value]) => `[${luaString(name)}] = ${luaString(value)}`).join(", ")} }`;

/** The request as a wrk script: method, headers and body on every request; with header sets, the next set each time. */
const scriptOf = (spec: LoadSpec) =>
  [
    `wrk.method = ${luaString(spec.method)}`,
    ...Object.entries(spec.headers ?? {}).map(([name, value]) => `wrk.headers[${luaString(name)}] = ${luaString(value)}`),
    ...(spec.body === undefined ? [] : [`wrk.body = ${luaString(spec.body)}`]),
    ...(spec.headerSets?.length
      ? [
          `local sets = { ${spec.headerSets.map(luaTable).join(", ")} }`,
          "local turn = 0",
          "request = function()",
          "  turn = turn % #sets + 1",
          "  for name, value in pairs(sets[turn]) do wrk.headers[name] = value end",
          "  return wrk.format()",
          "end",
        ]
      : []),
  ].join("\n");

const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

const latencyMs = (text: string, percentile: number) => {
  const match = new RegExp(`^\\s*${percentile}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, "m").exec(text);
  if (!match) throw new Error(`wrk printed no ${percentile}% latency:\n${text}`);
  return Number(match[1]) * UNIT_MS[match[2]!]!;
};

/** wrk's report as the bench's figures: 2xx per second, p50 and p99 of all responses, errors by kind. */
const figuresOfWrk = (text: string): LoadFigures => {
  const total = /(\d+) requests in ([\d.]+)(us|ms|s|m)/.exec(text);
  if (!total) throw new Error(`wrk printed no request count:\n${text}`);
  const requests = Number(total[1]);
  const seconds = (Number(total[2]) * UNIT_MS[total[3]!]!) / 1000;
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(text)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text);
  const [connect, read, write, timeouts] = socket ? socket.slice(1).map(Number) : [0, 0, 0, 0];
  return {
    okPerSec: (requests - non2xx) / seconds,
    p50: latencyMs(text, 50),
    p99: latencyMs(text, 99),
    requests,
    errors: connect! + read! + write!,
    timeouts: timeouts!,
    non2xx,
  };
};

/** One wrk run on the load CPU: one thread holding `connections` open connections for `duration` seconds. */
export const runWrk = (spec: LoadSpec): Promise<LoadFigures> => {
  const dir = mkdtempSync(path.join(tmpdir(), "bench-wrk-"));
  const script = path.join(dir, "request.lua");
  writeFileSync(script, scriptOf(spec));
  const args = ["-t1", `-c${spec.connections}`, `-d${spec.duration}s`, "--latency", "--timeout", "10s", "-s", script, spec.url];
  const [command, argv] = pinned(LOAD_CPU, "wrk", args, -10);
  return new Promise<LoadFigures>((resolve, reject) => {
    const child = trackChild(spawn(command, argv, { stdio: ["ignore", "pipe", "inherit"] }));
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
    child.once("error", reject);
    child.once("exit", (code, signal) => {
      if (code === 0) resolve(figuresOfWrk(out));
      else reject(new Error(`wrk exited with ${signal ?? code}`));
    });
  }).finally(() => rmSync(dir, { recursive: true, force: true }));
};
