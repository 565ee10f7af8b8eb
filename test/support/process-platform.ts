// The whole platform as separate processes (gateway, body-metrics, nutrition) on a PostgreSQL and a nats-server
// of the test's own: only then can a test stop the database or SIGKILL one service while the others run on, as
// in production (docs/security.md#19-a-killed-service-loses-no-acknowledged-write,
// docs/security.md#20-nats-and-postgresql-outages).
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { connect } from "nats";
import pg from "pg";
import { adminSocketPath, requestAccountKey } from "@fit/gateway";
import { freePort, uniqueTag } from "@fit/testing";
import { onTestFailed, onTestFinished } from "vitest";
import { runChild } from "./child-process.ts";
import { startPrivateNats } from "./nats-server.ts";
import { readNutritionSchema } from "./nutrition-schema.ts";
import { startPrivatePostgres } from "./postgres-server.ts";
import { waitFor } from "./wait.ts";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const ENTRIES = {
  gateway: "services/gateway/src/main.ts",
  bodyMetrics: "services/body-metrics/src/main.ts",
  nutrition: "services/nutrition/src/main.ts",
} as const;
type Name = keyof typeof ENTRIES;

/** GET /readyz's status, 0 when nothing answers. */
export const readyz = async (url: string) => (await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(5_000) }).catch(() => undefined))?.status ?? 0;

/**
 * Like service-process.ts, but on a port fixed for the platform's lifetime: the gateway's upstream URLs are read
 * once at its start, so a service restarted after a crash must come back at the same address.
 */
const startOnPort = async (entry: string, port: number, env: Record<string, string>) => {
  const url = `http://127.0.0.1:${port}`;
  const base = { PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: process.env["HOME"] ?? tmpdir() };
  const proc = runChild(process.execPath, ["--import", "tsx", entry], { cwd: repoRoot, env: { ...base, ...env, HOST: "127.0.0.1", PORT: String(port) } });
  await waitFor(
    `${entry} to be ready`,
    async () => {
      if (!proc.running()) throw new Error(`${entry} exited:\n${proc.log()}`);
      return (await readyz(url)) === 200 ? true : undefined;
    },
    45_000,
  ).catch(async (err: unknown) => {
    await proc.kill("SIGKILL");
    throw new Error(`${err instanceof Error ? err.message : String(err)}\n--- log ---\n${proc.log()}`, { cause: err });
  });
  return proc;
};

/**
 * The distinct errors in a process's log, counted: the cause of each 500 ("unexpected error") in one line, its
 * error type, code and the last line of its message, instead of pages of stack traces.
 */
const errorSummary = (log: string) => {
  const counts = new Map<string, number>();
  for (const line of log.split("\n")) {
    let entry: { msg?: string; err?: { type?: string; code?: string; message?: string; stack?: string } } | undefined;
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      entry = undefined; // not a log entry (a crash's output): kept as it is
    }
    const err = entry?.err;
    const key = entry ? `${entry.msg ?? ""}: ${err?.type ?? ""} ${err?.code ?? ""} ${err?.message?.trim().split("\n").pop() ?? ""}` : line.slice(0, 300);
    // A crash is rare and its origin the whole point: keep where it was thrown.
    if (entry?.msg?.startsWith("fatal")) counts.set(`${key}\n${err?.stack?.split("\n").slice(1, 12).join("\n") ?? ""}`, 1);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([key, n]) => `${n} x ${key}`).join("\n") || "(none)";
};

/** Call inside a test: everything is torn down when it finishes, and the errors each process logged are printed if it failed. */
export const startProcessPlatform = async () => {
  const teardown: (() => Promise<unknown>)[] = [];
  onTestFinished(async () => {
    for (const step of teardown.reverse()) await step().catch((err: unknown) => console.error("teardown step failed", err));
  });
  const procs: Partial<Record<Name, ReturnType<typeof runChild>>> = {};
  const postgres = await startPrivatePostgres();
  onTestFailed(() => {
    for (const [name, proc] of Object.entries(procs)) console.error(`--- ${name}: errors it logged (distinct, with counts) ---\n${errorSummary(proc.log())}`);
    console.error(`--- postgres (last lines) ---\n${postgres.log().split("\n").slice(-8).join("\n")}`);
  });
  teardown.push(() => postgres.close());
  const nats = await startPrivateNats();
  teardown.push(() => nats.close());
  const dataDir = await mkdtemp(join(tmpdir(), "fit-faults-platform-"));
  teardown.push(() => rm(dataDir, { recursive: true, force: true }));
  teardown.push(() => Promise.all(Object.values(procs).map((p) => p.kill("SIGKILL"))));

  const ports = { gateway: await freePort(), bodyMetrics: await freePort(), nutrition: await freePort() };
  const urls = { gateway: `http://127.0.0.1:${ports.gateway}`, bodyMetrics: `http://127.0.0.1:${ports.bodyMetrics}`, nutrition: `http://127.0.0.1:${ports.nutrition}` };
  const namespace = uniqueTag("faults");
  const secret = randomBytes(32).toString("hex");
  const env: Record<string, string> = {
    DATABASE_URL: postgres.url,
    NATS_URL: nats.url,
    NATS_NAMESPACE: namespace,
    INTERNAL_ASSERTION_SECRET: secret,
    LOG_LEVEL: "error", // only what is unexpected: the 500s' causes, kept for a failing test's message
    DATA_DIR: dataDir,
    DATABASE_POOL_SIZE: "5",
  };
  const gatewayEnv = {
    BETTER_AUTH_SECRET: randomBytes(32).toString("hex"),
    PUBLIC_URL: urls.gateway,
    BODY_METRICS_URL: urls.bodyMetrics,
    NUTRITION_URL: urls.nutrition,
    RATE_LIMIT_PER_MINUTE: "100000", // the load is the test's own; the limiter is not what is under test
  };
  const start = async (name: Name) => {
    procs[name] = await startOnPort(ENTRIES[name], ports[name], name === "gateway" ? { ...env, ...gatewayEnv } : env);
  };
  // All at once: the gateway's readiness does not need the services (only its forwarded requests do), and
  // migrations of different schemas do not wait for each other.
  await Promise.all([start("bodyMetrics"), start("nutrition"), start("gateway")]);

  /**
   * A fresh connection for the checks made once the faults are over (one opened before would have died with the
   * server); closed when the test ends.
   */
  const openDb = async () => {
    const sql = new pg.Client({ connectionString: postgres.url, options: "-c search_path=nutrition" });
    await sql.connect();
    teardown.push(() => sql.end());
    return {
      nutrition: readNutritionSchema(sql),
      /** Outbox rows of `schema`: all of them, and those not yet marked sent. */
      outbox: async (schema: "body_metrics" | "nutrition") =>
        (await sql.query<{ total: number; unsent: number }>(`SELECT count(*)::int AS total, count(*) FILTER (WHERE sent_at IS NULL)::int AS unsent FROM ${schema}.outbox_event`)).rows[0] ?? { total: -1, unsent: -1 },
    };
  };

  return {
    urls,
    secret,
    postgres,
    /** Whether the named process is alive: a service must survive a database outage without being restarted. */
    running: (name: Name) => procs[name]?.running() ?? false,
    pid: (name: Name) => procs[name]?.pid,
    kill: async (name: Name) => procs[name]?.kill("SIGKILL"),
    /** Starts the named process again on its own port. */
    start,
    account: async () => {
      const issued = await requestAccountKey(adminSocketPath(dataDir), `${uniqueTag("user")}@example.com`);
      if (!issued) throw new Error("the gateway's admin socket did not answer");
      return issued;
    },
    openDb,
    /** Messages JetStream holds in the service's stream (the relay publishes with Nats-Msg-Id = event id: one per row). */
    streamMessages: async (stream: "BODY_METRICS" | "NUTRITION") => {
      const nc = await connect({ servers: nats.url, name: "fault-test-probe" });
      try {
        return (await (await nc.jetstreamManager()).streams.info(`${namespace}_${stream}`)).state.messages;
      } finally {
        await nc.close();
      }
    },
  };
};

