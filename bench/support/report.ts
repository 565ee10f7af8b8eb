import { mkdir, writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import type { LoadFigures } from "./load.ts";
import { ROOT } from "./services.ts";

/**
 * --duration / --connections / --warmup, and --check (a short run: 3 s phases after 1 s of warm-up unless
 * told otherwise), and a benchmark's own options (`own`, read into `more`); a `--` that pnpm passes through is ignored.
 */
export const benchOptions = (own: Record<string, { type: "string"; default: string }> = {}) => {
  const { values } = parseArgs({
    args: process.argv.slice(2).filter((a) => a !== "--"),
    options: {
      ...own,
      duration: { type: "string" },
      connections: { type: "string", default: "50" },
      warmup: { type: "string" },
      check: { type: "boolean", default: false },
      rotations: { type: "string" },
    },
  });
  const short = values.check ?? false;
  const num = (name: string, value: string, min: number, max: number) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max) throw new Error(`--${name} must be a whole number from ${min} to ${max}`);
    return n;
  };
  return {
    duration: num("duration", values.duration ?? (short ? "3" : "10"), 1, 60),
    connections: num("connections", values.connections, 1, 500),
    warmup: num("warmup", values.warmup ?? (short ? "1" : "2"), 0, 30),
    /** Every phase this many times in turn; a ratio is taken within a rotation, the median of them reported. */
    rotations: num("rotations", values.rotations ?? (short ? "1" : "3"), 1, 10),
    check: short,
    more: Object.fromEntries(Object.keys(own).map((name) => [name, num(name, String((values as Record<string, unknown>)[name]), 0, 10_000_000)])),
  };
};

/** Names (first and last column) left-aligned, figures right-aligned. */
export const table = (rows: (string | number)[][]) => {
  const cells = rows.map((r) => r.map(String));
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((r) => r[i]?.length ?? 0)));
  const last = widths.length - 1;
  const pad = (c: string, i: number) => (i === 0 || i === last ? c.padEnd(widths[i]!) : c.padStart(widths[i]!));
  return cells.map((r) => r.map(pad).join("  ").trimEnd()).join("\n");
};

export const phaseTable = (phases: Record<string, LoadFigures>) =>
  table([
    ["phase", "2xx/s", "p50 ms", "p99 ms", "requests", "errors", "timeouts", "non-2xx", "CPU ms/request"],
    ...Object.entries(phases).map(([name, f]) => [
      name, fixed(f.okPerSec), f.p50, f.p99, f.requests, f.errors, f.timeouts, f.non2xx,
      Object.entries(f.cpuMsPerRequest ?? {}).filter(([, ms]) => ms > 0).map(([p, ms]) => `${p} ${ms.toFixed(2)}`).join(", "),
    ]),
  ]);

export interface Aim {
  what: string;
  value: string;
  aim: string;
  /** null: the figures behind it are not trustworthy (failed requests), so neither PASS nor MISS. */
  met: boolean | null;
}

const verdict = (met: boolean | null) => (met === null ? "INVALID" : met ? "PASS" : "MISS");

export const aimTable = (aims: Aim[]) =>
  table([["aim", "measured", "target", "verdict"], ...aims.map((a) => [a.what, a.value, a.aim, verdict(a.met)])]);

export const fixed = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : "n/a");

/** bench/results/<name>-<UTC timestamp>.json, and `<alias>.json` too when given (the folder is git-ignored). */
export const writeResults = async (name: string, results: object, alias?: string) => {
  const dir = `${ROOT}bench/results`;
  await mkdir(dir, { recursive: true });
  const stamp = new Date().toISOString().replace(/\.\d+Z$/, "Z").replace(/:/g, "-");
  const file = `${dir}/${name}-${stamp}.json`;
  const text = `${JSON.stringify(results, null, 2)}\n`;
  await writeFile(file, text);
  if (alias) await writeFile(`${dir}/${alias}.json`, text);
  return file.slice(ROOT.length) + (alias ? ` (and bench/results/${alias}.json)` : "");
};
