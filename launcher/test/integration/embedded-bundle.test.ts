// The embedded default as `pnpm start` runs it: the launcher's built bundle (launcher/dist, made by install),
// third-party packages bundled into it (docs/decisions/0042-embedded-bundle.md), run with the root start
// script's own environment and node flags. Every other test runs the TypeScript sources; this one proves the shipped artifact
// serves each part that loads code of its own: the API and its dashboard fan-out, the coach's estimator over the
// bus, an activity file parsed in a worker thread, a magic-link sign-in, the agent protocol, telemetry (metrics
// on their port, traces to an OTLP endpoint), and a clean stop.
import { execFile } from "node:child_process";
import { readFile, readdir, mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSocketPath, requestAccountKey } from "@fit/gateway";
import { freePort } from "@fit/testing";
import { makeGpx, straightTrack } from "../../../packages/activity-files/test/support/activity-files.ts";
import { runChild } from "../../../test/support/child-process.ts";
import { client } from "../../../test/support/http.ts";
import { mcpClient } from "../../../test/support/oauth-agent.ts";
import { waitFor } from "../../../test/support/wait.ts";

const root = fileURLToPath(new URL("../../../", import.meta.url));

const ASSIGNMENT = /^([A-Z_]+)=(.*)$/;

/** `[NAME=value ...] node <flags> launcher/dist/all-in-one.js`, read from the root package's start script. */
const startCommand = async () => {
  const { scripts } = JSON.parse(await readFile(path.join(root, "package.json"), "utf8")) as { scripts: Record<string, string> };
  const words = scripts["start"]!.split(" ");
  const assignments = words.findIndex((word) => !ASSIGNMENT.test(word));
  const env = Object.fromEntries(words.slice(0, assignments).map((word) => ASSIGNMENT.exec(word)!.slice(1, 3)));
  const [program, ...args] = words.slice(assignments);
  if (program !== "node" || args.at(-1) !== "launcher/dist/all-in-one.js") throw new Error(`unexpected start script: ${scripts["start"]}`);
  return { args, env };
};

describe("the embedded default's built bundle", () => {
  let dataDir: string;
  let url: string;
  let metricsUrl: string;
  let server: ReturnType<typeof runChild>;
  /** What reached the OTLP endpoint, one "METHOD path" per request. */
  const exported: string[] = [];
  const collector = createServer((request, response) => {
    exported.push(`${request.method} ${request.url}`);
    request.resume().on("end", () => response.writeHead(200, { "content-type": "application/json" }).end("{}"));
  });

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "fit-bundle-"));
    const [port, metricsPort, collectorPort] = [await freePort(), await freePort(), await freePort()];
    url = `http://127.0.0.1:${port}`;
    metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    await new Promise<void>((resolve) => collector.listen(collectorPort, "127.0.0.1", resolve));
    const start = await startCommand();
    const env = {
      ...start.env, PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: process.env["HOME"] ?? tmpdir(), DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: "warn",
      METRICS_PORT: String(metricsPort), OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${collectorPort}`,
    };
    server = runChild(process.execPath, start.args, { cwd: root, env });
    await waitFor("the bundle to answer /readyz", async () => {
      if (!server.running()) throw new Error(`it exited:\n${server.log()}`);
      return (await fetch(`${url}/readyz`).catch(() => undefined))?.ok || undefined;
    }, 60_000);
  }, 90_000);

  afterAll(async () => {
    await server?.kill("SIGINT");
    collector.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("serves the API, the coach, a worker-parsed import, sign-in, the agent protocol and telemetry, then stops cleanly", async () => {
    // Its data is not in ./data, so the key command it suggests names the folder.
    const keyCommand = `Get an API key:    DATA_DIR=${dataDir} npx -y pnpm@10 create-key you@example.com`;
    await waitFor("the start-up banner", async () => server.log().includes(keyCommand) || undefined);
    const issued = await requestAccountKey(adminSocketPath(dataDir), "bundle@example.com", {});
    if (!issued) throw new Error(`the admin socket did not answer:\n${server.log()}`);
    const api = client(url, issued.key);

    expect((await api.post("/api/weight", { weightKg: 80.5 })).status).toBe(200);
    const dashboard = await api.get("/api/dashboard");
    expect(dashboard.status).toBe(200);
    expect(dashboard.body.weight.latestKg).toBe(80.5);

    const described = await api.post("/api/nutrition/describe", { text: "two eggs and toast" });
    expect(described.status, server.log()).toBe(200);
    expect(described.body.items.length).toBeGreaterThan(0);

    const track = straightTrack({ start: new Date("2026-11-17T06:30:00Z"), points: 101, stepM: 10, stepS: 3, startEle: 100, climbPerStepM: 0.1, hr: 150 });
    const imported = await api.post("/api/workouts/import", Buffer.from(makeGpx(track, { name: "Bundle run", type: "running" })), { "content-type": "application/gpx+xml" });
    expect(imported.status, server.log()).toBe(200);
    expect(imported.body.workout).toMatchObject({ summary: "Bundle run", durationS: 300 });

    const asked = await fetch(`${url}/api/auth/sign-in/magic-link`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: url },
      body: JSON.stringify({ email: "bundle@example.com" }),
    });
    expect(asked.status).toBe(200);
    const link = await waitFor("the printed sign-in link", async () => /https?:\/\/\S+magic-link\/verify\S+/.exec(server.log())?.[0]);
    const verified = await fetch(link, { redirect: "manual" });
    expect(verified.headers.getSetCookie().some((cookie) => cookie.includes("session_token="))).toBe(true);

    const agent = await mcpClient(url, issued.key);
    const { tools } = await agent.listTools();
    expect(tools.map((tool) => tool.name)).toContain("getDashboard");
    await agent.close();

    const metrics = await (await fetch(metricsUrl)).text();
    expect(metrics).toMatch(/^http_server_request_duration_count\{.*http_route="\/api\/dashboard"/m);

    await server.kill("SIGINT");
    expect(server.running()).toBe(false);
    // The stop flushes the spans still buffered.
    expect(exported).toContain("POST /v1/traces");
    expect(server.log()).not.toMatch(/"level":(50|60)/);
  }, 120_000);
});

describe("the bundles' code", () => {
  it("keeps the source's names, with no helper restoring them at run time (docs/decisions/0051-bundles-keep-their-identifiers.md)", async () => {
    const dist = path.join(root, "launcher/dist");
    const files = (await readdir(dist)).filter((name) => name.endsWith(".js"));
    const sources = await Promise.all(files.map(async (name) => ({ name, source: await readFile(path.join(dist, name), "utf8") })));
    // esbuild's keepNames helper, `(target, value) => defineProperty(target, "name", { value, configurable: true })`
    // however minified: with it, every named closure had its `name` redefined each time it was made.
    const keepNamesHelper = /\(([\w$]+),([\w$]+)\)=>[\w$]+\(\1,"name",\{value(:\2)?,configurable:!0\}\)/;
    expect(sources.filter(({ source }) => keepNamesHelper.test(source)).map(({ name }) => name)).toEqual([]);
    const contracts = sources.find(({ source }) => /export\{[^}]*\butcDay\b/.test(source));
    if (!contracts) throw new Error("no chunk of launcher/dist exports utcDay by its name");
    // A stack trace from the bundle names the source's function.
    const script = `const { utcDay } = await import(${JSON.stringify(pathToFileURL(path.join(dist, contracts.name)).href)});
      try { utcDay(Number.NaN); } catch (error) { console.log(error.stack); }`;
    const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script]);
    expect(stdout).toMatch(new RegExp(`at utcDay \\(.*${contracts.name}`));
  }, 30_000);
});
