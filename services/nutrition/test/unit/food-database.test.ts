import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate, openDatabase, servicePrisma, type Database } from "@fit/db";
import { Prisma } from "../../src/store/generated/client.ts";
import { nutritionDatabase } from "../../src/app.ts";
import { foodQueries } from "../../src/store/foods.ts";
import { loadFoods } from "../../src/store/load-foods.ts";

// The embedded engine: PGlite with pg_trgm, the food tables loaded as at build time, searched as on PostgreSQL.
let db: Database;
const NOBODY = "00000000-0000-4000-8000-000000000000";
const PERSON = "00000000-0000-4000-8000-000000000001";
const count = async (table: "food" | "food_portion") =>
  (await db.query<{ n: number }>(Prisma.sql`SELECT count(*)::int AS n FROM ${Prisma.raw(table)}`))[0]!.n;

beforeAll(async () => {
  db = await openDatabase({ schema: "nutrition", dataDir: "memory://" });
  await migrate(db, servicePrisma(nutritionDatabase.prismaDir));
});
afterAll(() => db?.close());

describe("the food database on PGlite", () => {
  it("loads every food and portion once, and again only for another version", async () => {
    expect(await loadFoods(db)).toBe(true);
    expect([await count("food"), await count("food_portion")]).toEqual([7793, 14449]);
    // A quoted field with commas and a doubled quote, read as the file means it.
    const [beef] = await db.query<{ description: string }>(Prisma.sql`SELECT description FROM food WHERE id = 'usda:168609'`);
    expect(beef?.description).toBe('Beef, flank, steak, separable lean only, trimmed to 0" fat, choice, raw');
    // Each food's portions numbered 1, 2, … in the file's order, whichever statement carried them.
    const [gaps] = await db.query<{ n: number }>(Prisma.sql`SELECT count(*)::int AS n FROM food_portion p
      WHERE seq > 1 AND NOT EXISTS (SELECT 1 FROM food_portion q WHERE q.food_id = p.food_id AND q.seq = p.seq - 1)`);
    expect(gaps?.n).toBe(0);
    expect(await loadFoods(db), "the same version is already there").toBe(false);

    await db.query(Prisma.sql`UPDATE food_data SET version = 'older'`);
    await db.query(Prisma.sql`DELETE FROM food WHERE id = 'usda:173944'`);
    expect(await loadFoods(db)).toBe(true);
    expect([await count("food"), await count("food_portion")]).toEqual([7793, 14449]);
  }, 90_000); // two full loads into WASM PostgreSQL: seconds each on a quiet machine, more on a busy one

  it("finds foods by the words people type, typos included", async () => {
    const foods = foodQueries(db);
    const first = async (q: string) => (await foods.search(NOBODY, q, 5))[0]?.name;
    expect(await first("banana")).toBe("Bananas, raw");
    expect(await first("banan")).toBe("Bananas, raw");
    expect(await first("chiken brest")).toMatch(/^Chicken, broilers? or fryers, breast/);
    expect(await first("greek yogurt")).toMatch(/^Yogurt, Greek/);
    expect(await foods.search(NOBODY, "xqzv", 5)).toEqual([]);
  });

  it("lifts the foods a person logged above equal matches, for that person only, and lists them as recent", async () => {
    const foods = foodQueries(db);
    const [first, second] = await foods.search(NOBODY, "banana", 5);
    const log = (food: string, date: string) => db.query(Prisma.sql`INSERT INTO food_item (id, account_id, date, name, kcal, protein_g, source, updated_at)
      VALUES (${crypto.randomUUID()}::uuid, ${PERSON}::uuid, ${date}, 'x', 1, 0, ${food}, now())`);
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
    await log(second!.id, daysAgo(1));
    await log(second!.id, daysAgo(3));
    await log(first!.id, daysAgo(40));
    await log("usda:171477", daysAgo(120));

    expect((await foods.search(PERSON, "banana", 5)).slice(0, 2).map((f) => f.id)).toEqual([second!.id, first!.id]);
    expect((await foods.search(NOBODY, "banana", 5)).slice(0, 2).map((f) => f.id), "another person's search").toEqual([first!.id, second!.id]);
    expect(await foods.recent(PERSON, 10), "often and lately first; nothing older than 90 days").toMatchObject([
      { id: second!.id, timesLogged: 2, lastLoggedOn: daysAgo(1) },
      { id: first!.id, timesLogged: 1, lastLoggedOn: daysAgo(40) },
    ]);
    expect(await foods.recent(NOBODY, 10)).toEqual([]);
  });

  it("gives a food with its portions", async () => {
    const banana = await foodQueries(db).get("usda:173944");
    expect(banana).toMatchObject({ name: "Bananas, raw", per100g: { kcal: 89, fiberG: 2.6 } });
    expect(banana?.portions).toContainEqual({ id: 8, amount: 1, unit: "NLEA serving", grams: 126 });
  });
});
