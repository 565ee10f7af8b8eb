// The coach's quota counting against a real PostgreSQL: the race PGlite's single connection cannot show.
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { migrate, openDatabase, servicePrisma, type Database } from "@fit/db";
import { createTestDatabase } from "@fit/testing";
import { createStore, type Store } from "../../src/store/store.ts";

const prismaDir = fileURLToPath(new URL("../../prisma/", import.meta.url));
const DAY = "2026-11-23";
let testDb: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Database;
let store: Store;

beforeAll(async () => {
  testDb = await createTestDatabase(inject("databaseUrl"));
  db = await openDatabase({ url: testDb.url, schema: "coach", dataDir: "unused", poolSize: 10 });
  await migrate(db, servicePrisma(prismaDir));
  store = createStore(db);
});
afterAll(async () => {
  await store?.close();
  await db?.close();
  await testDb?.drop();
});

describe("daily usage", () => {
  it("lets exactly the day's calls through when many calls of one account race for the last ones", async () => {
    const accountId = randomUUID();
    const limits = { callsPerDay: 5, tokensPerDay: 1_000_000 };

    const granted = await Promise.all(Array.from({ length: 40 }, () => store.reserveCall(accountId, DAY, limits)));

    expect(granted.filter(Boolean)).toHaveLength(5);
    expect(await store.usage(accountId, DAY)).toEqual({ calls: 5, tokens: 0 });
  });

  it("refuses once the day's tokens are spent, counts tokens on the call's day, and starts again the next day", async () => {
    const accountId = randomUUID();
    const limits = { callsPerDay: 100, tokensPerDay: 1000 };
    expect(await store.reserveCall(accountId, DAY, limits)).toBe(true);
    await store.settleTokens(accountId, DAY, 0, 600);
    expect(await store.reserveCall(accountId, DAY, limits)).toBe(true);
    await store.settleTokens(accountId, DAY, 0, 600);

    expect(await store.reserveCall(accountId, DAY, limits)).toBe(false);
    expect(await store.usage(accountId, DAY)).toEqual({ calls: 2, tokens: 1200 });
    expect(await store.reserveCall(accountId, "2026-11-24", limits)).toBe(true);
    expect(await store.usage(accountId, "2026-11-24")).toEqual({ calls: 1, tokens: 0 });
  });
});
