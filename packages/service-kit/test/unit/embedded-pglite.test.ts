import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openEmbeddedPGlite } from "../../src/index.ts";

// docs/decisions/0041-one-pglite-for-the-embedded-process.md: which layout a DATA_DIR gets.
describe("the embedded process's PGlite", () => {
  const dirs: string[] = [];
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });
  const dataDir = async (...clusters: string[]) => {
    const dir = await mkdtemp(join(tmpdir(), "fit-embedded-"));
    dirs.push(dir);
    for (const name of clusters) {
      await mkdir(join(dir, name), { recursive: true });
      await writeFile(join(dir, name, "PG_VERSION"), "17\n");
    }
    return dir;
  };

  it("is shared in DATA_DIR/pglite on a new DATA_DIR", { timeout: 120_000 }, async () => {
    const dir = await dataDir();
    const shared = await openEmbeddedPGlite(dir, ["gateway", "coach"]);
    expect(shared).toBeDefined();
    await shared?.close();
    expect(existsSync(join(dir, "pglite", "PG_VERSION"))).toBe(true);
  });

  it("is not opened where a service already keeps a folder of its own", async () => {
    const dir = await dataDir("coach");
    expect(await openEmbeddedPGlite(dir, ["gateway", "coach"])).toBeUndefined();
    expect(existsSync(join(dir, "pglite"))).toBe(false);
  });

  it("stays shared once DATA_DIR has it, whatever else is there", { timeout: 120_000 }, async () => {
    const dir = await dataDir();
    await (await openEmbeddedPGlite(dir, ["gateway"]))?.close();
    await mkdir(join(dir, "coach"));
    await writeFile(join(dir, "coach", "PG_VERSION"), "17\n");
    const again = await openEmbeddedPGlite(dir, ["gateway", "coach"]);
    expect(again).toBeDefined();
    await again?.close();
  });
});
