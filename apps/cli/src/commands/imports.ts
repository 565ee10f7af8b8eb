import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { basename, extname } from "node:path";
import { Readable, Transform } from "node:stream";
import { setTimeout as delay } from "node:timers/promises";
import { IMPORT_FILE_LIMIT, ImportSummary, operations } from "@fit/contracts";
import { SingleBar } from "cli-progress";
import type { Command } from "commander";
import type { z } from "zod";
import { call, send } from "../client.ts";
import type { Connection } from "../config.ts";
import { contextOf } from "../context.ts";
import { CliError, exitCodes } from "../exit.ts";
import { localTime, printError, printJson, printLine, printRecord, printTable } from "../output.ts";

type Summary = z.output<typeof ImportSummary>;

const FOLLOW_EVERY_MS = 500;
const FINISHED = new Set(["done", "failed", "cancelled", "undone"]);

/**
 * The media type a file is sent as: its extension's, when the API lists that type, else octet-stream. The server
 * recognises what a file is from its content, so a source added there needs nothing here.
 */
const TYPE_OF_EXTENSION: Record<string, string> = {
  ".csv": "text/csv", ".txt": "text/plain", ".zip": "application/zip", ".xml": "application/xml", ".gz": "application/gzip",
};
const contentTypeOf = (file: string): string => {
  const type = TYPE_OF_EXTENSION[extname(file).toLowerCase()];
  const accepted: readonly string[] = operations.startImport.upload.mediaTypes;
  return type && accepted.includes(type) ? type : "application/octet-stream";
};

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

const countsLine = ({ counts }: Summary) =>
  `${counts.read} read, ${counts.created} created, ${counts.skipped} skipped, ${counts.refused} refused`;

const stateLine = (summary: Summary) =>
  `${summary.state}${summary.state === "reading" ? ` ${Math.floor(summary.progress * 100)}%` : ""}: ${countsLine(summary)}`;

/**
 * Progress on stderr (stdout stays the summary or the JSON): a bar redrawn in place on a terminal, and on anything
 * else (CI, a log) a plain line each time what it says changes.
 */
const progressView = (enabled: boolean) => {
  if (!enabled) return { update: () => undefined, stop: () => undefined };
  if (process.stderr.isTTY) {
    const bar = new SingleBar({ stream: process.stderr, format: "{phase} [{bar}] {percentage}% {detail}", hideCursor: true });
    let started = false;
    return {
      update: (phase: string, share: number, detail: string) => {
        const value = Math.round(share * 1000);
        if (!started) bar.start(1000, value, { phase, detail });
        else bar.update(value, { phase, detail });
        started = true;
      },
      stop: () => {
        if (started) bar.stop();
        started = false;
      },
    };
  }
  let last = "";
  return {
    update: (phase: string, _share: number, detail: string) => {
      const line = `${phase}: ${detail}`;
      if (line !== last) printError(line);
      last = line;
    },
    stop: () => undefined,
  };
};
type ProgressView = ReturnType<typeof progressView>;

/** Sends the file as the request body, read from disk as it goes out: never whole in memory. */
const upload = async (connection: Connection, file: string, query: Record<string, string | undefined>, view: ProgressView) => {
  let size: number;
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new CliError(`${file}: not a file`, exitCodes.usage);
    size = info.size;
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, exitCodes.usage);
  }
  if (size > IMPORT_FILE_LIMIT) throw new CliError(`${file}: larger than the ${megabytes(IMPORT_FILE_LIMIT)} an import takes`, exitCodes.usage);
  let sent = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      sent += chunk.length;
      view.update("uploading", size ? sent / size : 1, `${megabytes(sent)} of ${megabytes(size)}`);
      done(null, chunk);
    },
  });
  const body = Readable.toWeb(createReadStream(file).pipe(counted)) as ReadableStream<Uint8Array>;
  const entries = Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined);
  const path = `${operations.startImport.path}?${new URLSearchParams(entries).toString()}`;
  const response = await send(connection, "POST", path, { bytes: body, contentType: contentTypeOf(file) });
  return ImportSummary.parse(await response.json());
};

/** Asks for the import until it is finished, showing its state as it goes. */
const follow = async (connection: Connection, start: Summary, view: ProgressView): Promise<Summary> => {
  let summary = start;
  while (!FINISHED.has(summary.state)) {
    view.update(summary.state, summary.progress, countsLine(summary));
    await delay(FOLLOW_EVERY_MS);
    summary = await call(connection, operations.getImport, { params: { id: summary.id } });
  }
  view.update(summary.state, summary.state === "done" ? 1 : summary.progress, countsLine(summary));
  return summary;
};

const printSummary = (summary: Summary) => {
  printRecord([
    ["import", summary.id],
    ["file", summary.fileName ?? "–"],
    ["state", summary.state],
    ["read as", summary.layout ? `${summary.kind} (${summary.layout})` : summary.kind],
    ["rows", countsLine(summary)],
    ...(summary.error ? [["error", summary.error] as [string, string]] : []),
  ]);
  if (summary.refusals.length > 0) {
    printTable(["line", "refused because"], summary.refusals.map((refusal) => [refusal.line, refusal.reason]));
    const unlisted = summary.counts.refused - summary.refusals.length;
    if (unlisted > 0) printLine(`…and ${unlisted} more refused rows`);
  }
};

/** An import that did not end `done` ends the command with exit 1, so a script can tell. */
const settle = (summary: Summary, json: boolean) => {
  if (json) printJson(summary);
  else printSummary(summary);
  if (summary.state !== "done") process.exitCode = exitCodes.api;
};

export interface ExportOptions {
  tz?: string;
  unit?: "kg" | "lb";
  wait: boolean;
  progress: boolean;
}

/**
 * The profile's zone and weight unit for what a file writes without them, when the key may read the profile;
 * otherwise the API's own defaults (UTC, kg).
 */
const profileDefaults = async (connection: Connection) => {
  try {
    const profile = await call(connection, operations.getProfile);
    return { tz: profile.timeZone, unit: profile.units === "metric" ? undefined : "lb" as const };
  } catch (error) {
    if (error instanceof CliError && (error.status === 403 || error.status === 404)) return { tz: undefined, unit: undefined };
    throw error;
  }
};

/** `fit import <export>`: uploads one export or CSV to the imports API and follows it to its end. */
export const importExport = async (file: string, options: ExportOptions, command: Command) => {
  const context = contextOf(command);
  const connection = await context.connection();
  const defaults: { tz?: string | undefined; unit?: "lb" | undefined } = options.tz && options.unit ? {} : await profileDefaults(connection);
  const view = progressView(options.progress);
  try {
    const started = await upload(connection, file, { tz: options.tz ?? defaults.tz, unit: options.unit ?? defaults.unit, name: basename(file) }, view);
    if (!options.wait) {
      view.stop();
      if (context.json) return printJson(started);
      printLine(`Import ${started.id} ${started.state}; follow it with: fit import show ${started.id}`);
      return;
    }
    const finished = await follow(connection, started, view);
    view.stop();
    settle(finished, context.json);
  } finally {
    // Also when the upload or a request fails, so the error is not printed over the bar.
    view.stop();
  }
};

/** `fit import list`, `show <id>` and `undo <id>`. */
export const importSubcommands = (parent: Command): void => {
  parent
    .command("list")
    .description("the imports, newest first")
    .action(async (_options: object, command: Command) => {
      const context = contextOf(command);
      const { items } = await call(await context.connection(), operations.listImports);
      if (context.json) return printJson(items);
      printTable(["id", "when", "file", "state", "rows"], items.map((item) =>
        [item.id, localTime(item.createdAt), item.fileName ?? "–", item.state, countsLine(item)]));
    });
  parent
    .command("show")
    .description("one import: its state, counts and refused rows")
    .argument("<id>", "the import's id, as `fit import list` prints it")
    .action(async (id: string, _options: object, command: Command) => {
      const context = contextOf(command);
      const summary = await call(await context.connection(), operations.getImport, { params: { id } });
      if (context.json) return printJson(summary);
      printSummary(summary);
    });
  parent
    .command("undo")
    .alias("cancel")
    .description("cancel an import still running, or undo a finished one: exactly the rows it created are removed")
    .argument("<id>", "the import's id, as `fit import list` prints it")
    .action(async (id: string, _options: object, command: Command) => {
      const context = contextOf(command);
      const connection = await context.connection();
      let summary = await call(connection, operations.deleteImport, { params: { id } });
      // An undo removes the rows in the background: followed until they are gone.
      while (summary.state === "undoing") {
        await delay(FOLLOW_EVERY_MS);
        summary = await call(connection, operations.getImport, { params: { id } });
      }
      if (context.json) return printJson(summary);
      printLine(`Import ${id}: ${stateLine(summary)}`);
    });
};
