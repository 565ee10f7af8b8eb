import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { workerExecArgv } from "../../src/worker-exec-argv.ts";

// What the servers run with (package.json's start scripts, docs/decisions/0040-wasm-liftoff-only.md,
// docs/decisions/0049-minified-bundles-and-a-tighter-heap.md) and what
// tests and development add: the worker threads (activity files, migrations) must start under each.
const SERVER = ["--liftoff-only", "--max-semi-space-size=8", "--heap-growing-percent=20"];

describe("a worker thread's node flags", () => {
  it("drops V8's process-wide flags, which a worker thread refuses", async () => {
    expect(() => new Worker("", { eval: true, execArgv: SERVER })).toThrow(/invalid execArgv/);
    const argv = workerExecArgv(SERVER, { needsTsx: false });
    expect(argv).toEqual([]);
    const worker = new Worker("require('node:worker_threads').parentPort.postMessage('up')", { eval: true, execArgv: argv });
    expect(await new Promise((resolve) => worker.once("message", resolve))).toBe("up");
    await worker.terminate();
  });

  it("keeps the flags that load code, in both spellings, and adds tsx for TypeScript sources", () => {
    expect(workerExecArgv([...SERVER, "--import", "tsx", "--enable-source-maps"], { needsTsx: true })).toEqual(["--import", "tsx"]);
    expect(workerExecArgv(["--require=./setup.cjs", "--max-semi-space-size", "--conditions", "development"], { needsTsx: false })).toEqual([
      "--require=./setup.cjs",
      "--conditions",
      "development",
    ]);
    expect(workerExecArgv(["--liftoff-only"], { needsTsx: true })).toEqual(["--import", "tsx"]);
  });
});
