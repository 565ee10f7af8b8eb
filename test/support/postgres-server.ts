// A PostgreSQL server of the test's own (initdb into a temp folder, a free port): stopping the machine's shared
// server to provoke an outage would break every other test and developer using it.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { chown, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { freePort } from "@fit/testing";
import { runChild } from "./child-process.ts";
import { waitFor } from "./wait.ts";

// PostgreSQL refuses to run as root. As root, every PostgreSQL program runs as an unprivileged user through
// setpriv, which execs in place (no fork): the child the test holds IS the postmaster, so it dies with the test.
const unprivileged = (): { uid: number; gid: number } | null => {
  if (process.getuid?.() !== 0) return null;
  const users = readFileSync("/etc/passwd", "utf8").split("\n").map((line) => line.split(":"));
  for (const name of ["postgres", "nobody"]) {
    const [, , uid, gid] = users.find(([user]) => user === name) ?? [];
    if (uid && gid) return { uid: Number(uid), gid: Number(gid) };
  }
  throw new Error("running as root and found neither a postgres nor a nobody user in /etc/passwd to run PostgreSQL as");
};

// From PATH (the machine's PostgreSQL 15 binaries are linked there), or from PG_BIN when it names their folder.
const bin = (name: string) => (process.env["PG_BIN"] ? join(process.env["PG_BIN"], name) : name);

/** `command` as the unprivileged user (setpriv execs it in place), or as it is when we are not root. */
const as = (user: ReturnType<typeof unprivileged>, command: string, args: string[]): [string, string[]] =>
  user ? ["setpriv", [`--reuid=${user.uid}`, `--regid=${user.gid}`, "--clear-groups", "--", command, ...args]] : [command, args];

/** A one-shot PostgreSQL program (initdb, pg_ctl), run in `cwd`: a folder that user can read (not root's home). */
const runTool = (user: ReturnType<typeof unprivileged>, cwd: string, program: string, args: string[]) =>
  new Promise<void>((resolve, reject) => {
    const [command, argv] = as(user, bin(program), args);
    const child = spawn(command, argv, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${program} ${args.join(" ")} exited ${code}:\n${output}`))));
  });

/** Answers a query: accepting connections and out of recovery. */
const answers = async (url: string) => {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
  client.on("error", () => {});
  try {
    await client.connect();
    await client.query("SELECT 1");
    return true;
  } catch {
    return undefined;
  } finally {
    await client.end().catch(() => {});
  }
};

/**
 * initdb into a temp folder, then `postgres` on a free loopback port (TCP only, no Unix socket beside the shared
 * server's). Trust authentication: it listens on 127.0.0.1 and lives as long as the test.
 */
export const startPrivatePostgres = async () => {
  const user = unprivileged();
  const port = await freePort();
  const folder = await mkdtemp(join(tmpdir(), "fit-faults-pg-"));
  if (user) await chown(folder, user.uid, user.gid);
  const dataDir = join(folder, "data");
  // --no-sync: the cluster is thrown away; what the test provokes is a process stopping, not the machine losing power.
  await runTool(user, folder, "initdb", ["-D", dataDir, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"]);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;

  let current: ReturnType<typeof runChild> | undefined;
  const start = async () => {
    if (current?.running()) return;
    const [command, argv] = as(user, bin("postgres"), ["-D", dataDir, "-p", String(port), "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="]);
    const proc = runChild(command, argv, { cwd: folder });
    current = proc;
    await waitFor(
      `PostgreSQL on port ${port}`,
      async () => {
        if (!proc.running()) throw new Error(`postgres exited:\n${proc.log()}`);
        return answers(url);
      },
      30_000,
      50,
    );
  };
  /**
   * `pg_ctl stop`: "fast" ends sessions and checkpoints (a planned restart); "immediate" ends every process at
   * once with no checkpoint, so the next start runs crash recovery (what a crash of the server leaves).
   */
  const stop = async (mode: "fast" | "immediate" = "fast") => {
    if (!current?.running()) return;
    await runTool(user, folder, "pg_ctl", ["stop", "-D", dataDir, "-m", mode, "-w", "-t", "30"]);
    await current.kill("SIGKILL"); // already gone: pg_ctl waited for it; this only awaits the exit event
  };
  await start();
  return {
    url,
    start,
    stop,
    /** What the server said last, for a failing test's message. */
    log: () => current?.log() ?? "",
    /** Stops the server at once and removes its folder. */
    close: async () => {
      await stop("immediate").catch(() => current?.kill("SIGKILL"));
      await rm(folder, { recursive: true, force: true });
    },
  };
};

