import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { requestAccountKey } from "@fit/gateway";
import { onCleanup, trackChild } from "./cleanup.ts";
import { pinned, SERVER_CPU } from "./cpu.ts";
import { tallyLines } from "./logs.ts";
import { NATS_URL } from "./nats.ts";
import { memoryOf } from "./proc.ts";
import { SERVICE_ENV, SERVICE_NODE_FLAGS } from "../../launcher/src/service-node-flags.ts";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

import { deleteNamespaceStreams, freePort } from "@fit/testing";

export { freePort };

const hex64 = () => randomBytes(32).toString("hex");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Extra node flags for the servers, to look at where time goes without editing anything, e.g.
 * BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" (node refuses --cpu-prof in NODE_OPTIONS). They
 * come after production's flags, so a flag given here (`--max-semi-space-size=16`) replaces production's.
 */
const extraNodeArgs = (process.env["BENCH_SERVER_NODE_ARGS"] ?? "").split(" ").filter(Boolean);

/** Where a server runs: its CPU, and how much lower than the rest it is scheduled there (`nice`, 0 = as the rest). */
export interface Placement {
  cpu: number;
  nice: number;
}

const WITH_THE_SERVERS: Placement = { cpu: SERVER_CPU, nice: 0 };

/**
 * Spawns `node <entry>` on the server CPU (or where `placement` says): compiled JavaScript as production runs
 * it, or TypeScript through tsx (the bench's own baseline server).
 */
export const spawnServer = (name: string, entry: string, env: NodeJS.ProcessEnv, placement = WITH_THE_SERVERS): ChildProcess => {
  // A compiled service runs with the node flags and environment production gives it.
  const compiled = !entry.endsWith(".ts");
  const runtime = compiled ? SERVICE_NODE_FLAGS : ["--import", "tsx"];
  const [command, args] = pinned(placement.cpu, process.execPath, [...runtime, ...extraNodeArgs, entry], placement.nice);
  const child = trackChild(spawn(command, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"], env: compiled ? { ...SERVICE_ENV, ...env } : env }));
  tallyLines(name, child.stdout);
  tallyLines(name, child.stderr);
  return child;
};

/** Polls /readyz until it answers 200; fails at once if the process dies, and after `timeoutMs` anyway. */
export const waitReady = async (name: string, url: string, child: ChildProcess, timeoutMs = 60_000) => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${name} exited during start-up`);
    const ok = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2_000) }).then((r) => r.ok, () => false);
    if (ok) return;
    await sleep(200);
  }
  throw new Error(`${name} not ready within ${timeoutMs} ms`);
};

type ServiceName = "body-metrics" | "nutrition" | "workouts" | "insights" | "imports" | "coach" | "gateway";

/**
 * The platform as `pnpm start:services` runs it: each service its own process running its compiled
 * `dist/main.js` (`pnpm build`, run by install), on
 * PostgreSQL (schemas in `databaseUrl`) and NATS (a namespace of this run's own). `env` adds variables per
 * service; `addCoach` starts another coach replica (they share only NATS, queue group `coach`, and PostgreSQL),
 * placed by `coach` (by default with the other servers).
 */
export const startPlatform = async (
  databaseUrl: string,
  { env = {}, coach = WITH_THE_SERVERS }: { env?: Partial<Record<ServiceName, Record<string, string>>>; coach?: Placement } = {},
) => {
  const dataDir = await mkdtemp(join(tmpdir(), "fit-bench-"));
  onCleanup(() => rm(dataDir, { recursive: true, force: true }));
  const namespace = `bench${randomBytes(4).toString("hex")}`;
  onCleanup(() => deleteNamespaceStreams(NATS_URL, namespace));

  const ports = {
    "body-metrics": await freePort(), nutrition: await freePort(), workouts: await freePort(), insights: await freePort(), imports: await freePort(), gateway: await freePort(),
  };
  const urlOf = (name: keyof typeof ports) => `http://127.0.0.1:${ports[name]}`;
  const shared = {
    ...process.env,
    HOST: "127.0.0.1",
    DATABASE_URL: databaseUrl,
    NATS_URL,
    NATS_NAMESPACE: namespace,
    INTERNAL_ASSERTION_SECRET: hex64(),
    BETTER_AUTH_SECRET: hex64(),
    DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
    BODY_METRICS_URL: urlOf("body-metrics"),
    NUTRITION_URL: urlOf("nutrition"),
    WORKOUTS_URL: urlOf("workouts"),
    INSIGHTS_URL: urlOf("insights"),
    IMPORTS_URL: urlOf("imports"),
    PUBLIC_URL: urlOf("gateway"),
    // One account drives all the load: the per-account limit (600/min by default) would turn it into 429s.
    RATE_LIMIT_PER_MINUTE: "1000000000",
  };
  const started: { name: string; child: ChildProcess }[] = [];
  /** Every server's pid by name; a coach added later appears here too. */
  const pids: Record<string, number> = {};
  const start = async (name: string, service: ServiceName, port: number) => {
    const placement = service === "coach" ? coach : undefined;
    // BENCH_TELEMETRY=on: metrics on in every server, each on a port of its own (one shared port would clash).
    const telemetry = process.env["BENCH_TELEMETRY"] === "on" ? { METRICS_PORT: String(await freePort()) } : {};
    const child = spawnServer(name, `services/${service}/dist/main.js`, { ...shared, ...telemetry, ...env[service], PORT: String(port) }, placement);
    started.push({ name, child });
    pids[name] = child.pid ?? -1;
    await waitReady(name, `http://127.0.0.1:${port}`, child);
  };
  let coaches = 0;
  const addCoach = async () => start(`coach-${++coaches}`, "coach", await freePort());
  // Every service `pnpm start:services` runs: insights answers the dashboard's trend and consumes every write's event.
  const services = ["body-metrics", "nutrition", "workouts", "insights", "imports", "gateway"] as const;
  await Promise.all([...services.map((name) => start(name, name, ports[name])), addCoach()]);

  return {
    gatewayUrl: urlOf("gateway"),
    namespace,
    pids,
    addCoach,
    coaches: () => coaches,
    /** Kills a service's process as a crash would (SIGKILL) and starts another on its port; its pid changes. */
    restart: async (service: keyof typeof ports) => {
      const entry = started.find((s) => s.name === service);
      if (!entry) throw new Error(`${service} is not running`);
      const exited = once(entry.child, "exit");
      entry.child.kill("SIGKILL");
      await exited;
      started.splice(started.indexOf(entry), 1);
      await start(service, service, ports[service]);
    },
    /** A new account and a key (full access unless scopes are given), from the gateway's admin socket (what create-key uses). */
    account: async (label: string, scopes?: string[]) => {
      const email = `${label}-${randomBytes(3).toString("hex")}@bench.example.com`;
      const issued = await requestAccountKey(join(dataDir, "gateway-admin.sock"), email, scopes ? { scopes } : {});
      if (!issued) throw new Error("the gateway's admin socket did not answer");
      return issued;
    },
    memory: () => Promise.all(started.map(async (s) => ({ name: s.name, memory: await memoryOf(s.child.pid ?? -1) }))),
  };
};

export type Platform = Awaited<ReturnType<typeof startPlatform>>;
