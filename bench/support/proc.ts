import { spawnSync } from "node:child_process";
import { readFile } from "node:fs/promises";

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
export const cpuMsOf = async (pid: number): Promise<number> => {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => null);
  if (!stat) return NaN;
  // Fields after "(comm)" start at field 3 (state); utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
};
