import { fixed, table } from "./report.ts";

/** One row of the performance targets table: what was measured, against the issue's floor and the aim beyond. */
export interface Target {
  what: string;
  /** The figure before this work, as the issue recorded it. */
  today: string;
  value: number;
  /** False when the phases behind the value had failed requests: such a figure measures failures, not the path. */
  trusted: boolean;
  floor: number;
  aim: number;
  unit: "x" | "ms" | "MB" | "s";
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
const shown = (t: Target) => (t.unit === "x" ? `${fixed(t.value, 2)}x` : `${fixed(t.value, t.unit === "ms" && Math.abs(t.value) < 10 ? 2 : 1)} ${t.unit}`);

export const targetTable = (rows: ReturnType<typeof judge>) =>
  table([["target", "before", "measured", "floor", "aim", "verdict"], ...rows.map((t) => [t.what, t.today, shown(t), bound(t, t.floor), bound(t, t.aim), t.verdict])]);
