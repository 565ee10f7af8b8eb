import { createHash } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { migrate, openDatabase, type Database } from "../../src/index.ts";
import { clientFor, copyFixture, fixture, scratch } from "../helpers.ts";

type Row = { migration_name: string; checksum: string; finished_at: Date | null; rolled_back_at: Date | null };

async function history(db: Database): Promise<Row[]> {
  const client = clientFor(db);
  try {
    return await client.$queryRawUnsafe<Row[]>(
      "SELECT migration_name, checksum, finished_at, rolled_back_at FROM _prisma_migrations ORDER BY migration_name",
    );
  } finally {
    await client.$disconnect();
  }
}

describe("migrate on PGlite", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  async function memoryDb(): Promise<Database> {
    const db = await openDatabase({ schema: "fixture", dataDir: "memory://" });
    cleanups.push(() => db.close());
    return db;
  }

  it("applies each migration once and records it as prisma migrate deploy does", async () => {
    const db = await memoryDb();
    const names = (await import("node:fs")).readdirSync(fixture.migrationsDir).filter((n) => /^\d{14}_/.test(n));
    expect((await migrate(db, fixture)).applied).toEqual(names);
    expect((await migrate(db, fixture)).applied).toEqual([]);
    const rows = await history(db);
    expect(rows.map((r) => r.migration_name)).toEqual(names);
    const sql = await readFile(path.join(fixture.migrationsDir, names[0]!, "migration.sql"));
    expect(rows[0]?.checksum).toBe(createHash("sha256").update(sql).digest("hex"));
    expect(rows[0]?.finished_at).toBeInstanceOf(Date);
  });

  it("applies only migrations added since the last run", async () => {
    const tmp = await scratch();
    cleanups.push(tmp.remove);
    const svc = await copyFixture(tmp.dir);
    const db = await memoryDb();
    await migrate(db, svc);
    await mkdir(path.join(svc.migrationsDir, "29990101000000_add_tag"));
    await writeFile(path.join(svc.migrationsDir, "29990101000000_add_tag", "migration.sql"), 'ALTER TABLE "note" ADD COLUMN "tag" TEXT;\n');
    expect((await migrate(db, svc)).applied).toEqual(["29990101000000_add_tag"]);
  });

  // The stock PGlite adapter does not await the script: without @fit/db's wrapper this migration is recorded
  // as applied and the error escapes as an unhandled rejection.
  it("records a failing migration as failed, keeps none of its statements and blocks later ones", async () => {
    const tmp = await scratch();
    cleanups.push(tmp.remove);
    const svc = await copyFixture(tmp.dir);
    const add = async (name: string, sql: string) => {
      await mkdir(path.join(svc.migrationsDir, name));
      await writeFile(path.join(svc.migrationsDir, name, "migration.sql"), sql);
    };
    await add("29990101000000_bad", 'CREATE TABLE "half" (id int);\nCREATE TABLE "broken" (id no_such_type);\n');
    await add("29990102000000_after", 'CREATE TABLE "later" (id int);\n');
    const db = await memoryDb();
    await expect(migrate(db, svc)).rejects.toThrow(/no_such_type/);
    const bad = (await history(db)).find((r) => r.migration_name === "29990101000000_bad");
    expect(bad).toMatchObject({ finished_at: null, rolled_back_at: null });
    await expect(migrate(db, svc)).rejects.toThrow(/failed migrations/);
    const client = clientFor(db);
    const tables = await client.$queryRawUnsafe<{ t: string }[]>("SELECT tablename AS t FROM pg_tables WHERE tablename IN ('half', 'later')");
    await client.$disconnect();
    expect(tables).toEqual([]);
  });

  it("keeps applied migrations in an on-disk folder, creating its parent folders", async () => {
    const tmp = await scratch();
    cleanups.push(tmp.remove);
    const dataDir = path.join(tmp.dir, "nested", "data", "fixture");
    const first = await openDatabase({ schema: "fixture", dataDir });
    expect((await migrate(first, fixture)).applied).toHaveLength(1);
    await first.close();
    const again = await openDatabase({ schema: "fixture", dataDir });
    cleanups.push(() => again.close());
    expect((await migrate(again, fixture)).applied).toEqual([]);
    const client = clientFor(again);
    cleanups.push(() => client.$disconnect());
    await client.note.create({ data: { text: "persisted" } });
    expect(await client.note.count()).toBe(1);
  }, 60_000);

  it("runs concurrent calls on one database one after the other", async () => {
    const db = await memoryDb();
    const results = await Promise.all([migrate(db, fixture), migrate(db, fixture), migrate(db, fixture)]);
    expect(results.map((r) => r.applied.length).sort()).toEqual([0, 0, 1]);
  });
});
