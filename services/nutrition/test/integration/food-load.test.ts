import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@fit/db";
import { openReplicaDatabases } from "@fit/testing";
import { nutritionDatabase } from "../../src/app.ts";
import { Prisma } from "../../src/store/generated/client.ts";
import { loadFoods } from "../../src/store/load-foods.ts";

// Two replicas of nutrition on one PostgreSQL database, each opened as a start opens it: migrated, foods loaded
// (on a thread of the load's own).
let databases: Awaited<ReturnType<typeof openReplicaDatabases>>;

beforeAll(async () => {
  databases = await openReplicaDatabases(nutritionDatabase, 2, 2);
});
afterAll(() => databases?.close());

const counts = async (db: Database) =>
  (await db.query<{ foods: number; portions: number; versions: number }>(Prisma.sql`SELECT
    (SELECT count(*) FROM food)::int AS foods, (SELECT count(*) FROM food_portion)::int AS portions,
    (SELECT count(*) FROM food_data WHERE version <> 'older')::int AS versions`))[0]!;

describe("the food load on PostgreSQL", () => {
  it("is in place after a start, and a new version loaded by two replicas at once is loaded once", async () => {
    const [first, second] = databases.replicas as [Database, Database];
    expect(await counts(first)).toEqual({ foods: 7793, portions: 14449, versions: 1 });
    expect(await loadFoods(first), "the same version is already there").toBe(false);

    await first.query(Prisma.sql`UPDATE food_data SET version = 'older'`);
    await first.query(Prisma.sql`DELETE FROM food WHERE id = 'usda:173944'`);
    const loaded = await Promise.all([loadFoods(first), loadFoods(second)]);
    expect(loaded).toContain(true);
    expect(await counts(second)).toEqual({ foods: 7793, portions: 14449, versions: 1 });
  }, 90_000);
});
