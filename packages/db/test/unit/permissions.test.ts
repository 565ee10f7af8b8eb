import { chmod, mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase, openSharedPGlite } from "../../src/index.ts";

const dirs: string[] = [];
afterEach(async () => void (await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })))));

describe("an embedded database folder", () => {
  it("is owner-only whatever the mode of the folder it is made in, and is tightened if found looser", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "fit-perm-"));
    dirs.push(dataDir);
    await chmod(dataDir, 0o777);
    const folder = path.join(dataDir, "gateway");
    const db = await openDatabase({ schema: "identity", dataDir: folder });
    await db.close();
    expect((await stat(folder)).mode & 0o777).toBe(0o700);
    await chmod(folder, 0o755);
    await (await openDatabase({ schema: "identity", dataDir: folder })).close();
    expect((await stat(folder)).mode & 0o777).toBe(0o700);
  });

  it("is owner-only when the embedded process's services share it", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "fit-perm-"));
    dirs.push(dataDir);
    await chmod(dataDir, 0o777);
    const folder = path.join(dataDir, "pglite");
    await (await openSharedPGlite(folder)).close();
    expect((await stat(folder)).mode & 0o777).toBe(0o700);
  });
});
