// `pnpm start:services` as it is stopped by hand and by a supervisor: the built launcher (launcher/dist, made by
// install) starts every service's bundle on the real PostgreSQL and NATS, each service on a port counted from
// SERVICES_PORT. One signal, however it arrives, must give every service its graceful close: a service that hears
// two (a terminal's SIGINT to the whole process group and the launcher's SIGTERM) exits at once, skipping it.
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createTestDatabase, deleteNamespaceStreams, freePort, uniqueTag } from "@fit/testing";
import { waitFor, within } from "../../../test/support/wait.ts";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const SERVICES = ["body-metrics", "nutrition", "workouts", "coach", "insights", "imports"];

const listens = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = net.createServer().once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });

/** The first of `count` consecutive loopback ports nobody listens on, above the ones the default start takes. */
const freeRun = async (count: number) => {
  for (let first = 20_000 + Math.floor(Math.random() * 20_000); ; first += count) {
    const free = await Promise.all(Array.from({ length: count }, (_, i) => listens(first + i)));
    if (free.every(Boolean)) return first;
  }
};

describe("pnpm start:services", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let dataDir: string;
  const namespace = uniqueTag("mp");

  beforeAll(async () => {
    database = await createTestDatabase(inject("databaseUrl"));
    dataDir = await mkdtemp(path.join(tmpdir(), "fit-services-"));
  });

  afterAll(async () => {
    await database?.drop();
    await deleteNamespaceStreams(inject("natsUrl"), namespace);
    await rm(dataDir, { recursive: true, force: true });
  });

  /** The launcher in a process group of its own, as a terminal starts a command; resolves once every service is ready. */
  const start = async () => {
    const [servicesPort, port] = [await freeRun(SERVICES.length), await freePort()];
    const env = {
      PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: process.env["HOME"] ?? tmpdir(), DATA_DIR: dataDir, LOG_LEVEL: "info",
      DATABASE_URL: database.url, NATS_URL: inject("natsUrl"), NATS_NAMESPACE: namespace,
      PORT: String(port), SERVICES_PORT: String(servicesPort),
    };
    const launcher = spawn(process.execPath, ["launcher/dist/multi-process.js"], { cwd: root, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    launcher.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    launcher.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    const exited = new Promise<number | null>((resolve) => launcher.once("exit", (code) => resolve(code)));
    const running = () => launcher.exitCode === null && launcher.signalCode === null;
    const ports = [...SERVICES.map((_, i) => servicesPort + i), port];
    await waitFor("every service to answer /readyz on its port", async () => {
      if (!running()) throw new Error(`the launcher exited:\n${output}`);
      const answers = await Promise.all(ports.map((p) => fetch(`http://127.0.0.1:${p}/readyz`).then((r) => r.ok, () => false)));
      return answers.every(Boolean) || undefined;
    }, 90_000, 250);
    const pid = launcher.pid!;
    return {
      pid,
      /** How it stopped: its exit code, and each service's log lines of its close. */
      stopped: async () => {
        const code = await within(exited, 30_000, `the launcher to stop:\n${output}`).catch((error: unknown) => {
          process.kill(-pid, "SIGKILL");
          throw error;
        });
        const lines = output.split("\n").filter((line) => line.startsWith("{")).map((line) => JSON.parse(line) as { service?: string; msg?: string });
        const closed = (msg: string) => lines.filter((line) => line.msg === msg).map((line) => line.service).sort();
        return { code, shuttingDown: closed("shutting down"), stopped: closed("stopped"), output };
      },
    };
  };

  const everyService = [...SERVICES, "gateway"].sort();

  it("a terminal's Ctrl-C (SIGINT to the process group) closes each service once, gracefully", async () => {
    const launcher = await start();
    process.kill(-launcher.pid, "SIGINT");
    const { code, shuttingDown, stopped, output } = await launcher.stopped();
    expect(output).not.toMatch(/second SIG/);
    expect(shuttingDown).toEqual(everyService);
    expect(stopped).toEqual(everyService);
    expect(code).toBe(0);
  }, 150_000);

  it("a supervisor's SIGTERM to the launcher alone closes each service gracefully", async () => {
    const launcher = await start();
    process.kill(launcher.pid, "SIGTERM");
    const { code, shuttingDown, stopped, output } = await launcher.stopped();
    expect(output).not.toMatch(/second SIG/);
    expect(shuttingDown).toEqual(everyService);
    expect(stopped).toEqual(everyService);
    expect(code).toBe(0);
  }, 150_000);
});
