import { readFile } from "node:fs/promises";

export interface Memory {
  rssMb: number;
  peakMb: number;
}

/** VmRSS (now) and VmHWM (peak) from /proc/<pid>/status, in MB; null when the process is gone. */
export const memoryOf = async (pid: number): Promise<Memory | null> => {
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => null);
  if (!status) return null;
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
  return { rssMb: round1(kb("VmRSS") / 1024), peakMb: round1(kb("VmHWM") / 1024) };
};

export const round1 = (n: number) => Math.round(n * 10) / 10;
