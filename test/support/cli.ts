import { execFile, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, inject } from "vitest";
import { client } from "./http.ts";
import { startSystem, type System } from "./system.ts";

const cliFolder = fileURLToPath(new URL("../../apps/cli/", import.meta.url));

/** The compiled client, as `pnpm fit` and the package's `bin` run it. */
export const fitBinary = `${cliFolder}dist/fit.js`;

/**
 * Builds it from the current source (esbuild, well under a second), so a test never runs a stale or missing
 * build: CI runs `pnpm test` on a clean clone.
 */
export const buildCli = async (): Promise<void> => {
  await promisify(execFile)(process.execPath, ["build.mjs"], { cwd: cliFolder });
};

export interface FitRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface FitOptions {
  /** The HOME the client sees; its config lives under `<home>/config` unless `configHome` says otherwise. */
  home: string;
  configHome?: string | undefined;
  /** FIT_* and other variables; nothing of the test process's own environment but PATH reaches the client. */
  env?: Record<string, string> | undefined;
  input?: string | undefined;
}

/** Runs the built `fit` as a person's shell would, in UTC, and collects what it printed and its exit code. */
export const runFit = (args: string[], options: FitOptions) =>
  new Promise<FitRun>((resolve, reject) => {
    const child = spawn(process.execPath, [fitBinary, ...args], {
      env: { PATH: process.env.PATH, HOME: options.home, XDG_CONFIG_HOME: options.configHome ?? join(options.home, "config"), TZ: "UTC", ...options.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? "");
  });

/** `fit` as one person (the server and key in its environment); `json` runs a command with `--json` that must succeed. */
const fitAs = (url: string, key: string, home: string) => {
  const fit = (...args: string[]) => runFit(args, { home, env: { FIT_URL: url, FIT_API_KEY: key } });
  const json = async (...args: string[]) => {
    const run = await fit(...args, "--json");
    expect(run.stderr, args.join(" ")).toBe("");
    expect(run.code, args.join(" ")).toBe(0);
    return JSON.parse(run.stdout);
  };
  return { fit, json };
};

/**
 * The whole platform and a HOME for `fit`, for the tests of one file: the client built and the platform started
 * before them (with `env()`'s variables, read then), both stopped and removed after. `person()` is `fit` as a new
 * account (with `scopes` when given), with an HTTP client holding the same key.
 */
export const cliPlatform = (name: string, env: () => Record<string, string> = () => ({})) => {
  const platform = {} as { system: System; home: string };
  beforeAll(async () => {
    await buildCli();
    platform.system = await startSystem({ databaseUrl: inject("databaseUrl"), natsUrl: inject("natsUrl"), env: env() });
    platform.home = await mkdtemp(join(tmpdir(), `fit-${name}-`));
  });
  afterAll(async () => {
    await platform.system?.stop();
    if (platform.home) await rm(platform.home, { recursive: true, force: true });
  });
  const person = async (scopes?: string[]) => {
    const { key } = await platform.system.account(scopes);
    return { key, api: client(platform.system.url, key), ...fitAs(platform.system.url, key, platform.home) };
  };
  return Object.assign(platform, { person });
};
