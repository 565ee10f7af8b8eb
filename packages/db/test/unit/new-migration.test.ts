import { existsSync } from "node:fs";
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { newMigration } from "../../src/new-migration.ts";
import { copyFixture, fixture, scratch } from "../helpers.ts";

describe("new migration", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });
  async function emptyService() {
    const tmp = await scratch();
    cleanups.push(tmp.remove);
    const svc = await copyFixture(tmp.dir);
    await (await import("node:fs/promises")).rm(svc.migrationsDir, { recursive: true });
    return svc;
  }

  it("writes the first migration from empty, with a postgresql lockfile and no CREATE SCHEMA", async () => {
    const svc = await emptyService();
    const folder = await newMigration(svc, "Add notes!", new Date("2030-01-02T03:04:05Z"));
    expect(path.basename(folder!)).toBe("20300102030405_add_notes");
    const sql = await readFile(path.join(folder!, "migration.sql"), "utf8");
    expect(sql).toContain('CREATE TABLE "note"');
    expect(sql).toContain('CREATE INDEX "outbox_event_pending_idx" ON "outbox_event"("created_at", "id") WHERE (sent_at IS NULL)');
    expect(sql).not.toMatch(/CREATE SCHEMA/);
    expect(await readFile(path.join(svc.migrationsDir, "migration_lock.toml"), "utf8")).toMatch(/^provider = "postgresql"$/m);
  });

  it("writes only what the schema adds to the committed migrations", async () => {
    const tmp = await scratch();
    cleanups.push(tmp.remove);
    const svc = await copyFixture(tmp.dir);
    const schema = await readFile(svc.schemaPath, "utf8");
    await writeFile(svc.schemaPath, schema.replace("text      String", "text      String\n  pinned    Boolean  @default(false)"));
    const folder = await newMigration(svc, "pin notes");
    const sql = await readFile(path.join(folder!, "migration.sql"), "utf8");
    expect(sql).toMatch(/ALTER TABLE "note" ADD COLUMN\s+"pinned" BOOLEAN NOT NULL DEFAULT false/);
    expect(sql).not.toContain("CREATE TABLE");
  });

  it("writes nothing when the schema matches the migrations (the fixture's are up to date)", async () => {
    const before = await readdir(fixture.migrationsDir);
    expect(await newMigration(fixture, "nothing")).toBeNull();
    expect(await readdir(fixture.migrationsDir)).toEqual(before);
  });

  it("rejects a name without letters or digits before touching the folder", async () => {
    const svc = await emptyService();
    await expect(newMigration(svc, " -- ")).rejects.toThrow(/letters or digits/);
    expect(existsSync(svc.migrationsDir)).toBe(false);
  });
});
