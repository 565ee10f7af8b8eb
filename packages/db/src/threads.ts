// Work done once at start on a thread of its own, which ends with it: what the work loaded and allocated (a WASM
// engine, a data file's text) goes with the thread instead of staying in the service for the rest of its life
// (docs/performance.md, "Migrations on a thread").
import { Piscina } from "piscina";
import { workerExecArgv } from "./worker-exec-argv.ts";

/**
 * Runs the default export of the module at `entry` on `data`, on a new thread that ends with it. Piscina starts the
 * thread: it loads a TypeScript entry in a thread (tests) where node 20 alone does not.
 */
export const runOnThread = async <D, R>(entry: string, data: D): Promise<R> => {
  const pool = new Piscina<D, R>({
    filename: entry,
    execArgv: workerExecArgv(process.execArgv, { needsTsx: entry.endsWith(".ts") }),
    minThreads: 0,
    maxThreads: 1,
  });
  try {
    return await pool.run(data);
  } finally {
    await pool.close({ force: true });
  }
};
