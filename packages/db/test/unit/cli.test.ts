import { spawnSync } from "node:child_process";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { copyFixture, scratch } from "../helpers.ts";

const cli = fileURLToPath(new URL("../../src/cli.ts", import.meta.url));
// The commands run in a scratch folder, where a bare `--import tsx` would not resolve.
const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
const run = (args: string[], cwd: string, env: Record<string, string | undefined> = {}) =>
  spawnSync(process.execPath, ["--import", tsx, cli, ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, DATABASE_URL: undefined, ...env },
  });

describe("migrations CLI", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it("prints usage and exits 2 on wrong arguments", () => {
    for (const args of [[], ["deploy"], ["new", "--service", "x"], ["frobnicate", "--service", "x"], ["deploy", "--bogus"]]) {
      const result = run(args, process.cwd());
      expect(result.status, args.join(" ")).toBe(2);
      expect(result.stderr).toContain("usage:");
    }
  });

  it("deploys to ./data/<service> when DATABASE_URL is unset, then finds nothing pending", async () => {
    const tmp = await scratch();
    cleanups.push(tmp.remove);
    const svc = await copyFixture(tmp.dir);
    const first = run(["deploy", "--service", "svc"], tmp.dir);
    expect(first.stderr).toBe("");
    expect(first.stdout).toMatch(/applied:\n {2}\d{14}_init/);
    expect(await readdir(path.join(tmp.dir, "data"))).toEqual([path.basename(svc.serviceDir)]);
    expect(run(["deploy", "--service", "svc"], tmp.dir).stdout).toContain("no pending migrations");
  }, 60_000);

  it("prints no changes for `new` when the schema matches the migrations", async () => {
    const tmp = await scratch();
    cleanups.push(tmp.remove);
    await copyFixture(tmp.dir);
    const result = run(["new", "--service", "svc", "--name", "again"], tmp.dir);
    expect(result.stdout.trim()).toBe("no changes");
    expect(result.status).toBe(0);
  }, 60_000);
});
