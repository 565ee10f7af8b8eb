import { spawnSync } from "node:child_process";
import { availableParallelism } from "node:os";
import { onCleanup } from "./cleanup.ts";

/**
 * The machine has 2 cores: the servers get one and the load generator (and this orchestrating process) the
 * other, so the client never steals the servers' CPU. Everything a request touches is on the server CPU: the
 * services, the bare server, and PostgreSQL and NATS too (pinSharedServices), or the platform's extra database and
 * broker work (outbox rows, roll-ups, JetStream) would run on the load generator's core for free.
 */
export const SERVER_CPU = 0;
export const LOAD_CPU = 1;

const canPin =
  availableParallelism() >= 2 && spawnSync("taskset", ["-c", "0", "true"], { stdio: "ignore" }).status === 0;

const pinningOf = (shared: string) =>
  canPin ? `servers and ${shared} on CPU ${SERVER_CPU}, load on CPU ${LOAD_CPU} (taskset)` : "not pinned (no taskset or < 2 CPUs)";

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
const pinSelfToLoadCpu = () => {
  if (canPin) spawnSync("taskset", ["-a", "-p", "-c", String(LOAD_CPU), String(process.pid)], { stdio: "ignore" });
};

/** The processes of PostgreSQL and NATS on this machine (every PostgreSQL backend is forked from the first). */
const SHARED = ["postgres", "nats-server"];

const affinityOf = (pid: number) => /: ([0-9a-f]+)\s*$/.exec(spawnSync("taskset", ["-p", String(pid)], { encoding: "utf8" }).stdout)?.[1];

/**
 * Moves PostgreSQL's and NATS's processes to the server CPU for the run (new backends inherit the postmaster's
 * affinity) and returns what puts them back as they were. Says which it could not move (another user's process
 * without root): the run is then measured as before, and its heading says so.
 */
const pinSharedServices = (): { pinning: string; restore: () => void } => {
  if (!canPin) return { pinning: pinningOf(""), restore: () => undefined };
  const moved: { pid: number; mask: string }[] = [];
  const missed: string[] = [];
  for (const name of SHARED) {
    const pids = spawnSync("pgrep", ["-x", name], { encoding: "utf8" }).stdout.split("\n").filter(Boolean).map(Number);
    if (pids.length === 0) missed.push(`${name} (not running here)`);
    for (const pid of pids) {
      const mask = affinityOf(pid);
      if (mask && spawnSync("taskset", ["-a", "-p", "-c", String(SERVER_CPU), String(pid)], { stdio: "ignore" }).status === 0) moved.push({ pid, mask });
      else if (!missed.includes(name)) missed.push(`${name} (not allowed)`);
    }
  }
  const pinnedNames = SHARED.filter((name) => !missed.some((m) => m.startsWith(name))).join(" and ");
  return {
    pinning: pinningOf(pinnedNames || "none of PostgreSQL and NATS") + (missed.length ? `; unpinned: ${missed.join(", ")}` : ""),
    restore: () => {
      for (const { pid, mask } of moved) spawnSync("taskset", ["-a", "-p", mask, String(pid)], { stdio: "ignore" });
    },
  };
};

/**
 * Pins this process to the load CPU and PostgreSQL and NATS to the server CPU until the run's cleanup puts them
 * back; the pinning as the run's heading states it.
 */
export const pinForRun = () => {
  pinSelfToLoadCpu();
  const { pinning, restore } = pinSharedServices();
  onCleanup(async () => restore());
  return pinning;
};
