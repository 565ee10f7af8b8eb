import { createInterface } from "node:readline";

const LEVELS: Record<number, string> = { 30: "info", 40: "warn", 50: "error", 60: "fatal" };
const logTally = new Map<string, number>();

interface LogRecord {
  level?: number;
  msg?: string;
  err?: { type?: string };
}
const parseLog = (line: string): LogRecord | null => {
  try {
    return JSON.parse(line) as LogRecord;
  } catch {
    return null;
  }
};

/**
 * The services log JSON lines; under load the same line can repeat thousands of times (a client that hangs up
 * when a run ends is logged per request), so they are counted here and listed once by `logSummary`.
 */
export const tallyLines = (name: string, stream: NodeJS.ReadableStream) =>
  createInterface({ input: stream }).on("line", (line) => {
    const entry = parseLog(line);
    if (!entry?.level) return void console.error(`[${name}] ${line}`);
    const key = `${name} ${LEVELS[entry.level] ?? entry.level}: ${entry.msg ?? ""}${entry.err?.type ? ` (${entry.err.type})` : ""}`;
    logTally.set(key, (logTally.get(key) ?? 0) + 1);
  });

export const logSummary = () =>
  logTally.size === 0 ? "service logs: nothing at warn or above" : `service logs:\n${[...logTally].map(([k, n]) => `  ${n} × ${k}`).join("\n")}`;
