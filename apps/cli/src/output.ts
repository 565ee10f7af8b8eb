import Table from "cli-table3";

/**
 * C0 and C1 control characters and DEL: a terminal acts on them (an escape sequence can move the cursor, rewrite
 * what was printed, set the window title or, on some terminals, answer back as if typed). Anyone who may write a
 * note or a food name could plant them, so nothing the CLI prints carries one raw (docs/security.md, "The
 * command-line client"). Newline is kept: it is the CLI's own line and table layout.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g;
const visible = (char: string) => `\\x${char.charCodeAt(0).toString(16).padStart(2, "0")}`;

/** Text for a person's terminal: every control character but newline shown as `\xNN` instead of acted on. */
const forTerminal = (text: string): string => text.replace(CONTROL, visible);

// JSON.stringify escapes C0 already; DEL and C1 it leaves raw, and `\u00NN` is the same string to a JSON reader.
const RAW_IN_JSON = /[\u007f-\u009f]/g;

/** JSON text with no raw control character in it, meaning the same value. */
export const escapeJsonControls = (json: string): string =>
  json.replace(RAW_IN_JSON, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);

/** The names the API gives its instants in Unix milliseconds. */
const INSTANTS = new Set(["ts", "createdAt", "updatedAt", "startedAt", "lastUsedAt", "expiresAt", "startDate", "targetDate"]);

/**
 * The API's answer with, beside each instant in Unix ms, the same instant in ISO 8601 UTC under its name + `Iso`
 * (`ts` and `tsIso`): scripts keep the API's fields and need no date arithmetic to read one.
 */
const withIsoTimes = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(withIsoTimes);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).flatMap(([key, field]): [string, unknown][] => {
      const entry: [string, unknown] = [key, withIsoTimes(field)];
      if (!INSTANTS.has(key) || (typeof field !== "number" && field !== null)) return [entry];
      return [entry, [`${key}Iso`, field === null ? null : new Date(field).toISOString()]];
    }),
  );
};

export const printJson = (value: unknown): void => {
  process.stdout.write(`${escapeJsonControls(JSON.stringify(withIsoTimes(value), null, 2))}\n`);
};

export const printLine = (line: string): void => {
  process.stdout.write(`${forTerminal(line)}\n`);
};

/** A line on stderr (errors), as carefully as on stdout: an error message may quote stored data. */
export const printError = (line: string): void => {
  process.stderr.write(`${forTerminal(line)}\n`);
};

// Cells are made safe before the table measures them: it sizes columns as the terminal would render the text.
const cell = (value: string | number) => (typeof value === "string" ? forTerminal(value) : value);

/** A table for people; scripts use --json. */
export const printTable = (head: string[], rows: (string | number)[][]): void => {
  const table = new Table({ head: head.map(forTerminal), style: { head: [], border: [] } });
  table.push(...rows.map((row) => row.map(cell)));
  printLine(table.toString());
};

/** After a page of a list: how to ask for the next one. */
export const printMore = (nextCursor: string | null): void => {
  if (nextCursor) printLine(`More: add --cursor ${nextCursor}`);
};

/** Label/value rows, for one record. */
export const printRecord = (rows: [string, string][]): void => {
  const table = new Table({ style: { head: [], border: [] } });
  table.push(...rows.map(([label, value]) => ({ [forTerminal(label)]: forTerminal(value) })));
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
