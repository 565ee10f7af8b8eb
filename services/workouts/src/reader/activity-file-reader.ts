import { fileURLToPath } from "node:url";
import { Piscina } from "piscina";
import { AppError } from "@fit/contracts";
import type { ImportedActivity } from "../domain/import/activity-file.ts";
import type { ReadOutcome } from "./activity-file-worker.ts";
import { workerExecArgv } from "./worker-exec-argv.ts";

// The build compiles the worker beside the bundle and points this URL at it (scripts/build.mjs).
const worker = fileURLToPath(new URL("./activity-file-worker.ts", import.meta.url));
/** Run from TypeScript source by a host that did not load tsx itself (a test runner), the thread needs it. */
const execArgv = workerExecArgv(process.execArgv, { needsTsx: worker.endsWith(".ts") });

/**
 * Reads GPX, TCX and FIT files on worker threads: a 10 MiB GPX takes seconds of CPU to parse, which on the
 * request thread would stall every other request of the service (docs/security.md#25-activity-file-imports). At most
 * `threads` files are read at once and `queue` wait; past both the upload is refused with 429 and Retry-After.
 */
export const createActivityFileReader = ({ threads, queue }: { threads: number; queue: number }) => {
  const pool = new Piscina<Uint8Array, ReadOutcome>({ filename: worker, execArgv, minThreads: 0, maxThreads: threads, idleTimeout: 30_000 });
  let reading = 0;
  return {
    read: async (bytes: Uint8Array): Promise<ImportedActivity> => {
      if (reading >= threads + queue) throw new AppError("rate_limited", "too many activity files are being read, retry shortly", undefined, 2);
      reading++;
      try {
        const outcome = await pool.run(bytes);
        if (!outcome.ok) throw new AppError("validation", outcome.message);
        return outcome.activity;
      } finally {
        reading--;
      }
    },
    close: () => pool.destroy(),
  };
};

export type ActivityFileReader = ReturnType<typeof createActivityFileReader>;
