import { fixed, table } from "./report.ts";

/** One row of the performance targets table: what was measured, against the issue's floor and the aim beyond. */
export interface Target {
  what: string;
  /** The figure before this work, as the issue recorded it. */
  today: string;
  value: number;
  /** The lowest and highest value over the rotations, when there were several (value is their median). */
  spread?: [number, number];
  /** False when the phases behind the value had failed requests: such a figure measures failures, not the path. */
  trusted: boolean;
  floor: number;
  aim: number;
  unit: "x" | "ms" | "MB" | "s" | "rows/s";
  /** Smaller is better (latency, memory, a slow-down ratio); otherwise larger is. */
  lower?: boolean;
  /** The floor itself does not pass ("< 100 ms" rather than "<= 1.5x"). */
  strictly?: boolean;
}

/** AIM: beyond the aim too; PASS: at or past the floor; MISS: short of it; INVALID: failed requests behind it. */
type Verdict = "AIM" | "PASS" | "MISS" | "INVALID";

const meets = (t: Target, bound: number) =>
  t.lower ? (t.strictly ? t.value < bound : t.value <= bound) : t.strictly ? t.value > bound : t.value >= bound;

export const judge = (targets: Target[]) =>
  targets.map((t) => {
    const verdict: Verdict = !t.trusted || !Number.isFinite(t.value) ? "INVALID" : meets(t, t.aim) ? "AIM" : meets(t, t.floor) ? "PASS" : "MISS";
    return { ...t, verdict };
  });

const bound = (t: Target, n: number) => `${t.lower ? (t.strictly ? "<" : "<=") : t.strictly ? ">" : ">="} ${n}${t.unit === "x" ? "x" : ` ${t.unit}`}`;
const figure = (t: Target, value: number) => (t.unit === "x" ? `${fixed(value, 2)}x` : `${fixed(value, t.unit === "ms" && Math.abs(value) < 10 ? 2 : 1)} ${t.unit}`);
const shown = (t: Target) => figure(t, t.value) + (t.spread ? ` (${figure(t, t.spread[0])} to ${figure(t, t.spread[1])})` : "");

/** A row measured once per rotation: the median, its spread, and trusted only when every rotation was. */
export const overRotations = (values: { value: number; trusted: boolean }[]): Pick<Target, "value" | "trusted" | "spread"> => {
  const sorted = values.map((v) => v.value).sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  const value = sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return { value, trusted: values.every((v) => v.trusted), ...(sorted.length > 1 ? { spread: [sorted[0]!, sorted.at(-1)!] as [number, number] } : {}) };
};

export const targetTable = (rows: ReturnType<typeof judge>) =>
  table([["target", "before", "measured", "floor", "aim", "verdict"], ...rows.map((t) => [t.what, t.today, shown(t), bound(t, t.floor), bound(t, t.aim), t.verdict])]);
