// Fault-injection helpers for integration tests that must stop, kill or cut things without touching the machine's
// shared PostgreSQL and NATS (notes/toolchain.md): a private nats-server with its own store folder, a service run
// as a child process (so it can be killed with SIGKILL), and a TCP proxy in front of PostgreSQL that can freeze a
// service's database connection at an exact point of a transaction.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { signAssertion } from "@fit/service-kit";

export const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

import { freePort } from "@fit/testing";

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `probe` until it returns a value other than undefined, or throws naming `what` after `timeoutMs`. */
export const waitFor = async <T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 15_000, everyMs = 100): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last instanceof Error ? `: ${last.message}` : ""}`);
    await sleep(everyMs);
  }
};

/** `promise`, or an error naming `what` after `timeoutMs`. */
export const within = async <T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)), timeoutMs);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
};

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

/** A child process with its output kept (last 200 lines) for failure messages. */
const runChild = (command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv }) => {
  const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
  track(child);
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    lines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
    if (lines.length > 200) lines.splice(0, lines.length - 200);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<number | string | null>((resolve) => child.once("exit", (code, signal) => resolve(signal ?? code)));
  const kill = async (signal: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill(signal);
    const done = await Promise.race([exited.then(() => true), sleep(10_000).then(() => false)]);
    if (!done) {
      child.kill("SIGKILL");
      await exited;
    }
  };
  return { child, exited, kill, log: () => lines.join("\n"), running: () => child.exitCode === null && child.signalCode === null };
};

const portAnswers = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });

export interface PrivateNats {
  url: string;
  /** Starts the server again on the same port and store folder (streams and consumers survive). */
  start(): Promise<void>;
  /** SIGTERM (a clean shutdown, store flushed) by default; SIGKILL for a crash. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  running(): boolean;
  /** Stops the server and removes its store folder. */
  close(): Promise<void>;
}

/** `nats-server -js` of this test's own, on a free port, with its own store folder. */
export const startPrivateNats = async (): Promise<PrivateNats> => {
  const port = await freePort();
  const storeDir = await mkdtemp(join(tmpdir(), "fit-faults-nats-"));
  let current: ReturnType<typeof runChild> | undefined;
  const start = async () => {
    if (current?.running()) return;
    const proc = runChild("nats-server", ["-js", "-a", "127.0.0.1", "-p", String(port), "-sd", storeDir], {});
    current = proc;
    await waitFor(
      `nats-server on port ${port}`,
      async () => {
        if (!proc.running()) throw new Error(`nats-server exited:\n${proc.log()}`);
        return /Server is ready/.test(proc.log()) && (await portAnswers(port)) ? true : undefined;
      },
      10_000,
      50,
    );
  };
  const stop = async (signal: NodeJS.Signals = "SIGTERM") => {
    await current?.kill(signal);
  };
  await start();
  return {
    url: `nats://127.0.0.1:${port}`,
    start,
    stop,
    running: () => current?.running() ?? false,
    close: async () => {
      await stop("SIGKILL");
      await rm(storeDir, { recursive: true, force: true });
    },
  };
};

export interface ServiceProcess {
  url: string;
  pid: number | undefined;
  kill(signal?: NodeJS.Signals): Promise<void>;
  running(): boolean;
  log(): string;
}

/** Runs `node --import tsx <entry>` from the repository root with exactly `env`, and waits for /readyz. */
export const startServiceProcess = async (entry: string, env: Record<string, string>): Promise<ServiceProcess> => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const base = { PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: process.env["HOME"] ?? tmpdir() };
  const proc = runChild(process.execPath, ["--import", "tsx", entry], { cwd: repoRoot, env: { ...base, ...env, HOST: "127.0.0.1", PORT: String(port) } });
  const service: ServiceProcess = {
    url,
    pid: proc.child.pid,
    kill: (signal = "SIGKILL") => proc.kill(signal),
    running: proc.running,
    log: proc.log,
  };
  try {
    await waitFor(
      `${entry} to be ready`,
      async () => {
        if (!proc.running()) throw new Error(`${entry} exited:\n${proc.log()}`);
        const response = await fetch(`${url}/readyz`).catch(() => undefined);
        return response?.status === 200 ? true : undefined;
      },
      30_000,
    );
  } catch (err) {
    await proc.kill("SIGKILL");
    throw new Error(`${err instanceof Error ? err.message : String(err)}\n--- log ---\n${proc.log()}`, { cause: err });
  }
  return service;
};

/** Calls a service directly, as the gateway would: a signed internal assertion for `caller` on every request. */
export const serviceClient = (baseUrl: string | (() => string), secret: string, caller: { accountId: string; email: string }) => {
  const call = async (method: string, path: string, body?: unknown) => {
    const assertion = await signAssertion(secret, { ...caller, scopes: null });
    const base = typeof baseUrl === "string" ? baseUrl : baseUrl();
    const response = await fetch(new URL(path, base), {
      method,
      headers: { "x-fit-assertion": assertion, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
  return {
    get: (path: string) => call("GET", path),
    post: (path: string, body: unknown) => call("POST", path, body),
    patch: (path: string, body: unknown) => call("PATCH", path, body),
    delete: (path: string) => call("DELETE", path),
  };
};

export type TrapMode = "before-commit" | "after-commit";

export interface PgProxy {
  /** `databaseUrl` with its host and port replaced by the proxy's. */
  url(databaseUrl: string): string;
  /**
   * Arms a trap on the next transaction that recomputes a daily total (recognised by its advisory lock).
   * "before-commit": its COMMIT is never forwarded, so PostgreSQL rolls it back when the connection dies.
   * "after-commit": its COMMIT is forwarded and PostgreSQL's answer withheld, so the transaction is committed
   * while the service never learns it (and never acknowledges the event). Either way the connection is frozen
   * from then on. Resolves once the trap has sprung (for "after-commit": once PostgreSQL confirmed the commit).
   */
  trapNextRecompute(mode: TrapMode): Promise<void>;
  close(): Promise<void>;
}

const RECOMPUTE_MARKER = "pg_advisory_xact_lock(hashtextextended";

/**
 * A TCP proxy in front of PostgreSQL. The service's pool talks through it; transparent until a trap is armed.
 * Matching is on the raw bytes of the wire protocol: the SQL text of a Parse or Query message, and the
 * CommandComplete tag "COMMIT" in PostgreSQL's answer.
 */
export const startPgProxy = async (databaseUrl: string): Promise<PgProxy> => {
  const target = new URL(databaseUrl);
  const sockets = new Set<net.Socket>();
  let armed: { mode: TrapMode; sprung: () => void } | null = null;

  const server = net.createServer((client) => {
    const upstream = net.connect({ host: target.hostname, port: Number(target.port || 5432) });
    sockets.add(client);
    sockets.add(upstream);
    let inRecompute = false;
    let frozen = false;
    let awaitingCommit: (() => void) | null = null;
    client.on("data", (chunk) => {
      if (frozen || awaitingCommit) return;
      const text = chunk.toString("latin1");
      if (text.includes(RECOMPUTE_MARKER)) inRecompute = true;
      if (/\b(COMMIT|ROLLBACK)\b/.test(text)) {
        const trap = inRecompute ? armed : null;
        inRecompute = false;
        if (trap) {
          armed = null;
          if (trap.mode === "before-commit") {
            frozen = true;
            trap.sprung();
            return;
          }
          awaitingCommit = trap.sprung;
        }
      }
      upstream.write(chunk);
    });
    upstream.on("data", (chunk) => {
      if (frozen) return;
      if (awaitingCommit) {
        if (!chunk.toString("latin1").includes("COMMIT")) return;
        frozen = true;
        awaitingCommit();
        return;
      }
      client.write(chunk);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on("close", end);
    upstream.on("close", end);
    client.on("error", end);
    upstream.on("error", end);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;

  return {
    url: (databaseUrl) => {
      const url = new URL(databaseUrl);
      url.hostname = "127.0.0.1";
      url.port = String(port);
      return url.toString();
    },
    trapNextRecompute: (mode) =>
      new Promise<void>((resolve) => {
        armed = { mode, sprung: resolve };
      }),
    close: async () => {
      armed = null;
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};

// ---- a JetStream client for the test itself ----
// `nats` is a dependency of @fit/testing, not of the workspace root, so it is loaded from there. Only the part of
// its API these tests use is typed here.
export interface ConsumerState {
  num_ack_pending: number;
  num_pending: number;
  delivered: { consumer_seq: number; stream_seq: number };
  ack_floor: { consumer_seq: number; stream_seq: number };
  config: { ack_wait?: number };
}
interface NatsModule {
  connect(options: { servers: string; name?: string; maxReconnectAttempts?: number; reconnectTimeWait?: number }): Promise<{
    jetstream(): { publish(subject: string, data: Uint8Array, options?: { msgID?: string }): Promise<{ seq: number; duplicate: boolean }> };
    jetstreamManager(): Promise<{
      consumers: {
        info(stream: string, durable: string): Promise<ConsumerState>;
        update(stream: string, durable: string, config: { ack_wait: number }): Promise<unknown>;
      };
    }>;
    close(): Promise<void>;
  }>;
  nanos(ms: number): number;
}
const nats = createRequire(new URL("../../packages/testing/package.json", import.meta.url))("nats") as NatsModule;

/** The test's own view of JetStream: raw publishes (any Nats-Msg-Id) and the state of durable consumers. */
export const connectJetStream = async (url: string) => {
  // Reconnects for as long as it takes: the tests stop and start this server.
  const nc = await nats.connect({ servers: url, name: "fault-test", maxReconnectAttempts: -1, reconnectTimeWait: 250 });
  const js = nc.jetstream();
  const jsm = await nc.jetstreamManager();
  return {
    publish: (subject: string, payload: unknown, msgID: string) => js.publish(subject, new TextEncoder().encode(JSON.stringify(payload)), { msgID }),
    consumer: (stream: string, durable: string) => jsm.consumers.info(stream, durable),
    setAckWait: (stream: string, durable: string, ms: number) => jsm.consumers.update(stream, durable, { ack_wait: nats.nanos(ms) }),
    close: () => nc.close(),
  };
};
export type JetStreamProbe = Awaited<ReturnType<typeof connectJetStream>>;
