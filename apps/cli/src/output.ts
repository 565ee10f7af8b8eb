import Table from "cli-table3";

export const printJson = (value: unknown): void => {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
};

export const printLine = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

/** A table for people; scripts use --json. */
export const printTable = (head: string[], rows: (string | number)[][]): void => {
  const table = new Table({ head, style: { head: [], border: [] } });
  table.push(...rows);
  printLine(table.toString());
};

/** Label/value rows, for one record. */
export const printRecord = (rows: [string, string][]): void => {
  const table = new Table({ style: { head: [], border: [] } });
  table.push(...rows.map(([label, value]) => ({ [label]: value })));
  printLine(table.toString());
};

const pad = (n: number) => String(n).padStart(2, "0");

/** The calendar day in the user's own time zone: "today" means the user's today, not UTC's. */
export const localDay = (date = new Date()): string =>
  `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;

export const localTime = (ms: number): string => {
  const date = new Date(ms);
  return `${localDay(date)} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
};

export const duration = (seconds: number): string => {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = Math.round(seconds % 60);
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
};

export const km = (metres: number): string => `${(metres / 1000).toFixed(2)} km`;

/** A number, or a dash for a value not recorded. */
export const orDash = (value: number | string | null | undefined, suffix = ""): string =>
  value === null || value === undefined ? "–" : `${value}${suffix}`;
