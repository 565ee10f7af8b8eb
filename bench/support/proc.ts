import { spawnSync } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";

export interface Memory {
  rssMb: number;
  peakMb: number;
}

const round1 = (n: number) => Math.round(n * 10) / 10;

/** VmRSS (now) and VmHWM (peak) from /proc/<pid>/status, in MB; null when the process is gone. */
export const memoryOf = async (pid: number): Promise<Memory | null> => {
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => null);
  if (!status) return null;
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
  return { rssMb: round1(kb("VmRSS") / 1024), peakMb: round1(kb("VmHWM") / 1024) };
};

const CLOCK_TICKS = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout) || 100;

/** CPU time (user + system, all threads) a process has used so far, in ms, from /proc/<pid>/stat. */
const cpuMsOf = async (pid: number): Promise<number> => {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => null);
  if (!stat) return NaN;
  // Fields after "(comm)" start at field 3 (state); utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
};

/** The pids of every process running `command` (its /proc/<pid>/comm). */
const pidsOf = async (command: string): Promise<number[]> => {
  const pids = (await readdir("/proc")).filter((entry) => /^\d+$/.test(entry));
  const comms = await Promise.all(pids.map((pid) => readFile(`/proc/${pid}/comm`, "utf8").catch(() => "")));
  return pids.filter((_, i) => comms[i]!.trim() === command).map(Number);
};

/**
 * A server to account CPU time to: one process (its pid), or every process of a command (its name): PostgreSQL
 * forks a backend per connection, and its share of a request is theirs together.
 */
export type CpuOwner = number | string;

/** CPU time so far (ms) by pid, of one process or of every process of a command. */
export const cpuSample = async (owner: CpuOwner): Promise<Map<number, number>> => {
  const pids = typeof owner === "number" ? [owner] : await pidsOf(owner);
  return new Map(await Promise.all(pids.map(async (pid) => [pid, await cpuMsOf(pid)] as const)));
};

/** CPU time spent between two samples: a process started in between counts whole, one gone since counts nothing. */
export const cpuSpent = (before: Map<number, number>, after: Map<number, number>): number => {
  let spent = 0;
  for (const [pid, ms] of after) if (!Number.isNaN(ms)) spent += ms - (before.get(pid) ?? 0);
  return spent;
};
