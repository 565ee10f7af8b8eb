import path from "node:path";
import { sqltag as sql } from "@prisma/client/runtime/client";
import { afterEach, describe, expect, it } from "vitest";
import { migrate, openSharedPGlite, writeSharedPgliteTemplate, type Database } from "../../src/index.ts";
import { clientFor, fixture, scratch, sleep } from "../helpers.ts";

// docs/decisions/0041-one-pglite-for-the-embedded-process.md: one PGlite, a schema per service, as on PostgreSQL.
describe("a PGlite shared by several services", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  const open = async () => {
    const shared = await openSharedPGlite("memory://");
    cleanups.push(() => shared.close());
    return shared;
  };
  const schemaOf = async (db: Database) => (await db.query<{ schema: string }>(sql`SELECT current_schema() AS schema`))[0]?.schema;

  it("migrates each service into its own schema, Prisma's queries and raw SQL alike", { timeout: 120_000 }, async () => {
    const shared = await open();
    const [a, b] = [await shared.database("svc_a"), await shared.database("svc_b")];
    expect((await migrate(a, fixture)).applied.length).toBeGreaterThan(0);
    expect((await migrate(b, fixture)).applied.length).toBeGreaterThan(0);
    expect((await migrate(a, fixture)).applied).toEqual([]);

    const [clientA, clientB] = [clientFor(a), clientFor(b)];
    cleanups.push(() => clientA.$disconnect(), () => clientB.$disconnect());
    await clientA.note.create({ data: { text: "in a" } });
    await clientB.$executeRaw`INSERT INTO note (text) VALUES ('in b'), ('also in b')`;

    const tables = await a.query<{ schema: string; rows: number }>(
      sql`SELECT 'svc_a' AS schema, count(*)::int AS rows FROM svc_a.note UNION ALL SELECT 'svc_b', count(*)::int FROM svc_b.note ORDER BY 1`,
    );
    expect(tables).toEqual([
      { schema: "svc_a", rows: 1 },
      { schema: "svc_b", rows: 2 },
    ]);
    expect((await clientA.note.findMany()).map((n) => n.text)).toEqual(["in a"]);
    expect(await clientB.note.count()).toBe(2);
  });

  it("never lets one schema's statement run on another's path, however their calls interleave", async () => {
    const shared = await open();
    const views = [await shared.database("one"), await shared.database("two"), await shared.database("three")];
    const seen = await Promise.all(Array.from({ length: 60 }, (_, i) => views[i % 3]!).map(async (db) => [await schemaOf(db), db] as const));
    for (const [schema, db] of seen) expect(schema).toBe(await schemaOf(db));
    expect(seen.map(([schema]) => schema).slice(0, 3)).toEqual(["one", "two", "three"]);
  });

  it("keeps a transaction on its schema's path while others wait their turn", async () => {
    const shared = await open();
    const [a, b] = [await shared.database("tx_a"), await shared.database("tx_b")];
    const [clientA, clientB] = [clientFor(a), clientFor(b)];
    cleanups.push(() => clientA.$disconnect(), () => clientB.$disconnect());
    const inside: string[] = [];
    const transaction = clientA.$transaction(async (tx) => {
      inside.push((await tx.$queryRaw<{ s: string }[]>`SELECT current_schema() AS s`)[0]!.s);
      await sleep(50); // b's statement is called meanwhile: it waits for the transaction to end
      inside.push((await tx.$queryRaw<{ s: string }[]>`SELECT current_schema() AS s`)[0]!.s);
    });
    await sleep(10);
    const other = clientB.$queryRaw<{ s: string }[]>`SELECT current_schema() AS s`;
    await transaction;
    expect(inside).toEqual(["tx_a", "tx_a"]);
    expect((await other)[0]!.s).toBe("tx_b");
  });

  it("writes a template holding every service's schema, which a new folder starts from", { timeout: 180_000 }, async () => {
    const tmp = await scratch();
    cleanups.push(tmp.remove);
    const template = path.join(tmp.dir, "template");
    const applied = await writeSharedPgliteTemplate(
      [
        { schema: "first", ...fixture },
        { schema: "second", ...fixture },
      ],
      template,
    );
    expect(Object.keys(applied)).toEqual(["first", "second"]);
    expect(applied["first"]!.length).toBeGreaterThan(0);

    const shared = await openSharedPGlite(path.join(tmp.dir, "data"), template);
    cleanups.push(() => shared.close());
    for (const schema of ["first", "second"]) expect((await migrate(await shared.database(schema), fixture)).applied).toEqual([]);
  });
});
