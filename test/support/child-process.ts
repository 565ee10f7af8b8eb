// Fault tests run servers and services as child processes, because only a separate process can be killed with
// SIGKILL the way a crash would end it.
import { spawn, type ChildProcess } from "node:child_process";
import { setTimeout as delay } from "node:timers/promises";

// Children still alive when the test process exits (a crash, a timeout) are killed with it, never left behind.
const live = new Set<ChildProcess>();
let exitHook = false;
const track = (child: ChildProcess) => {
  if (!exitHook) {
    exitHook = true;
    process.once("exit", () => {
      for (const c of live) c.kill("SIGKILL");
    });
  }
  live.add(child);
  child.once("exit", () => live.delete(child));
};

const KEPT_LINES = 200;

/** A child process whose last output lines are kept, so a failure can show what it said. */
export const runChild = (command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv }) => {
  const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
  track(child);
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    lines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
    if (lines.length > KEPT_LINES) lines.splice(0, lines.length - KEPT_LINES);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const running = () => child.exitCode === null && child.signalCode === null;
  /** Sends `signal`; a process that ignores it for 10 s is killed with SIGKILL, so a kill always ends it. */
  const kill = async (signal: NodeJS.Signals) => {
    if (!running()) return;
    child.kill(signal);
    const ended = await Promise.race([exited.then(() => true), delay(10_000, false, { ref: false })]);
    if (!ended) {
      child.kill("SIGKILL");
      await exited;
    }
  };
  return { pid: child.pid, kill, running, log: () => lines.join("\n") };
};
