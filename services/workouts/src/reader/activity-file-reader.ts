import { fileURLToPath } from "node:url";
import { Piscina } from "piscina";
import { AppError } from "@fit/contracts";
import { workerExecArgv } from "@fit/db";
import type { ImportedActivity } from "@fit/activity-files";
import type { ReadOutcome } from "./activity-file-worker.ts";

// The build compiles the worker beside the bundle and points this URL at it (scripts/build.mjs).
const worker = fileURLToPath(new URL("./activity-file-worker.ts", import.meta.url));
/** Run from TypeScript source by a host that did not load tsx itself (a test runner), the thread needs it. */
const execArgv = workerExecArgv(process.execArgv, { needsTsx: worker.endsWith(".ts") });

/**
 * What one reading thread may take: the streamed parse of a 10 MiB file of 250 000 points holds under 60 MB, so a
 * thread that goes past the heap or the time here is a file made to exhaust it, and the thread is ended for it.
 */
const THREAD_HEAP_MB = 128;
const READ_TIMEOUT_MS = 20_000;

const tooComplex = () => new AppError("payload_too_large", "the file is too large or too complex to read");

/** A thread ended for its heap or its time; anything else is a fault of ours and stays a 500. */
const isRunaway = (error: unknown) => {
  const { code, name } = error as { code?: unknown; name?: unknown };
  return code === "ERR_WORKER_OUT_OF_MEMORY" || name === "AbortError";
};

/**
 * Reads GPX, TCX and FIT files on worker threads: a 10 MiB file takes a second of CPU to parse, which on the
 * request thread would stall every other request of the service (docs/security.md#25-activity-file-imports). At most
 * `threads` files are read at once and `queue` wait; past both the upload is refused with 429 and Retry-After. A
 * file past the parser's caps, or whose reading runs past the thread's heap or time, is a 413.
 */
export const createActivityFileReader = ({
  threads,
  queue,
  heapMb = THREAD_HEAP_MB,
  timeoutMs = READ_TIMEOUT_MS,
}: {
  threads: number;
  queue: number;
  heapMb?: number;
  timeoutMs?: number;
}) => {
  const pool = new Piscina<Uint8Array, ReadOutcome>({
    filename: worker,
    execArgv,
    minThreads: 0,
    maxThreads: threads,
    idleTimeout: 30_000,
    resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 16 },
  });
  let reading = 0;
  return {
    read: async (bytes: Uint8Array): Promise<ImportedActivity[]> => {
      if (reading >= threads + queue) throw new AppError("rate_limited", "too many activity files are being read, retry shortly", undefined, 2);
      reading++;
      try {
        const outcome = await pool.run(bytes, { signal: AbortSignal.timeout(timeoutMs) }).catch((error: unknown) => {
          throw isRunaway(error) ? tooComplex() : error;
        });
        if (!outcome.ok) throw new AppError(outcome.tooLarge ? "payload_too_large" : "validation", outcome.message);
        return outcome.activities;
      } finally {
        reading--;
      }
    },
    close: () => pool.destroy(),
  };
};

export type ActivityFileReader = ReturnType<typeof createActivityFileReader>;
