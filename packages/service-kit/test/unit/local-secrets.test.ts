import { chmod, mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadOrCreateLocalSecret } from "../../src/local-secrets.ts";

const dirs: string[] = [];
const tempDir = async () => {
  const dir = await mkdtemp(path.join(tmpdir(), "fit-secrets-"));
  dirs.push(dir);
  return dir;
};
afterEach(async () => void (await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })))));

describe("loadOrCreateLocalSecret", () => {
  it("creates a 43-character random secret in a 0600 file and returns the same value afterwards", async () => {
    const dir = await tempDir();
    const first = await loadOrCreateLocalSecret(dir, "better-auth");
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const file = path.join(dir, "secrets", "better-auth");
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await readFile(file, "utf8")).trim()).toBe(first);
    expect(await loadOrCreateLocalSecret(dir, "better-auth")).toBe(first);
    expect(await loadOrCreateLocalSecret(dir, "other")).not.toBe(first);
  });

  it("gives every concurrent caller the same value", async () => {
    const dir = await tempDir();
    const values = await Promise.all(Array.from({ length: 8 }, () => loadOrCreateLocalSecret(dir, "shared")));
    expect(new Set(values).size).toBe(1);
  });

  it("tightens a secret file found readable by others", async () => {
    const dir = await tempDir();
    await loadOrCreateLocalSecret(dir, "loose");
    const file = path.join(dir, "secrets", "loose");
    await chmod(file, 0o644);
    await loadOrCreateLocalSecret(dir, "loose");
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it("refuses names that could leave the secrets folder", async () => {
    await expect(loadOrCreateLocalSecret(await tempDir(), "../escape")).rejects.toThrow(/must match/);
  });
});
