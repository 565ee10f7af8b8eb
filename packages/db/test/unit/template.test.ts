import { readdirSync } from "node:fs";
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { migrate, openDatabase } from "../../src/index.ts";
import { writePgliteTemplate } from "../../src/template.ts";
import { clientFor, fixture, scratch } from "../helpers.ts";

// docs/decisions/0026-compiled-runtime.md: a new PGlite folder starts as a copy of the build's template.
describe("PGlite template", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  // initdb, the migrations and a second start: slow on a busy machine.
  it("starts a new data folder with every migration applied and none left to apply", { timeout: 180_000 }, async () => {
    const tmp = await scratch();
    cleanups.push(tmp.remove);
    const template = path.join(tmp.dir, "template");
    const names = readdirSync(fixture.migrationsDir).filter((n) => /^\d{14}_/.test(n));
    expect(await writePgliteTemplate(fixture, template)).toEqual(names);

    const db = await openDatabase({ schema: "fixture", dataDir: path.join(tmp.dir, "data"), template });
    cleanups.push(() => db.close());
    expect((await migrate(db, fixture)).applied).toEqual([]);
    const client = clientFor(db);
    cleanups.push(() => client.$disconnect());
    const rows = await client.$queryRawUnsafe<{ migration_name: string }[]>("SELECT migration_name FROM _prisma_migrations ORDER BY 1");
    expect(rows.map((r) => r.migration_name)).toEqual(names);
  });

  it("leaves an existing data folder as it is", { timeout: 180_000 }, async () => {
    const tmp = await scratch();
    cleanups.push(tmp.remove);
    const dataDir = path.join(tmp.dir, "data");
    const first = await openDatabase({ schema: "fixture", dataDir });
    await first.close();
    // Not a cluster PGlite could start: were it copied, opening would fail, and its marker would be there.
    const template = path.join(tmp.dir, "template");
    await mkdir(template);
    await writeFile(path.join(template, "PG_VERSION"), "not a cluster");
    await writeFile(path.join(template, "marker"), "");
    const db = await openDatabase({ schema: "fixture", dataDir, template });
    cleanups.push(() => db.close());
    expect((await migrate(db, fixture)).applied.length).toBeGreaterThan(0);
    expect(existsSync(path.join(dataDir, "marker"))).toBe(false);
  });
});
