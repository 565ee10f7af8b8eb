import { spawnSync } from "node:child_process";
import { availableParallelism } from "node:os";

/**
 * The machine has 2 cores: the servers get one and the load generator (and this orchestrating process) the
 * other, so the client never steals the servers' CPU. PostgreSQL and NATS are shared system services we do not
 * own, so they stay unpinned.
 */
export const SERVER_CPU = 0;
export const LOAD_CPU = 1;

const canPin =
  availableParallelism() >= 2 && spawnSync("taskset", ["-c", "0", "true"], { stdio: "ignore" }).status === 0;

export const pinning = canPin ? `servers on CPU ${SERVER_CPU}, load on CPU ${LOAD_CPU} (taskset)` : "not pinned (no taskset or < 2 CPUs)";

/**
 * The command line that runs `command` on `cpu`, at another scheduling priority when `nice` is not 0 (1 to 19
 * lower; below 0 higher, which needs root: without it nice warns and runs the command as it is). nice and
 * taskset exec it, so the child's pid is the program's own.
 */
export const pinned = (cpu: number, command: string, args: string[], nice = 0): [string, string[]] => {
  const [program, rest]: [string, string[]] = canPin ? ["taskset", ["-c", String(cpu), command, ...args]] : [command, args];
  return nice !== 0 ? ["nice", ["-n", String(nice), program, ...rest]] : [program, rest];
};

/** Moves every thread of this process to the load CPU: it is a client too (seeding, event-lag writes). */
export const pinSelfToLoadCpu = () => {
  if (canPin) spawnSync("taskset", ["-a", "-p", "-c", String(LOAD_CPU), String(process.pid)], { stdio: "ignore" });
};
