import type { ChildProcess } from "node:child_process";
import { once } from "node:events";

type Step = () => Promise<unknown>;

const steps: Step[] = [];
const children = new Set<ChildProcess>();
let running: Promise<void> | undefined;
let interrupted = false;

/** True once Ctrl-C or a kill started the cleanup: what fails after that is the interruption, not a finding. */
const isInterrupted = () => interrupted;

/** Registers an undo step; steps run last-registered first, after every child process has stopped. */
export const onCleanup = (step: Step) => void steps.push(step);

/** Remembers a child so cleanup stops it (by its pid) whatever happened. */
export const trackChild = <C extends ChildProcess>(child: C): C => {
  children.add(child);
  child.once("exit", () => children.delete(child));
  return child;
};

/** SIGTERM, then SIGKILL if it has not exited after `graceMs`. */
const stopChild = async (child: ChildProcess, graceMs = 5_000) => {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
  await exited;
  clearTimeout(timer);
};

/** Runs once: children first (they hold database connections and NATS consumers), then the steps. */
const cleanup = (): Promise<void> =>
  (running ??= (async () => {
    await Promise.all([...children].map((child) => stopChild(child)));
    for (const step of steps.reverse()) {
      await step().catch((error: unknown) => console.error("cleanup step failed:", error));
    }
  })());

// Ctrl-C or a kill must still drop the database and stop the servers; a second Ctrl-C aborts the cleanup.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    interrupted = true;
    console.error(`\n${signal}: cleaning up…`);
    void cleanup().finally(() => process.exit(130));
  });
}

/** Runs a benchmark's body, reports a failure (unless it was an interruption) and always cleans up. */
export const runBenchmark = async (body: () => Promise<void>): Promise<void> => {
  try {
    await body();
  } catch (error) {
    if (!isInterrupted()) {
      console.error(error);
      process.exitCode = 1;
    }
  } finally {
    await cleanup();
  }
};
