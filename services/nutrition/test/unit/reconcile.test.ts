import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate, openDatabase, type Database } from "@fit/db";
import { reconcileTotals, STALE_PENDING_MS } from "../../src/handlers/reconcile.ts";
import { createStore, type Store } from "../../src/store/store.ts";

const prismaDir = fileURLToPath(new URL("../../prisma/", import.meta.url));
let dir: string;
let db: Database;
let store: Store;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "fit-reconcile-"));
  db = await openDatabase({ dataDir: join(dir, "db"), schema: "nutrition" });
  await migrate(db, { schemaPath: join(prismaDir, "schema.prisma"), migrationsDir: join(prismaDir, "migrations") });
  store = createStore(db);
});
afterAll(async () => {
  await store.close();
  await db.close();
  await rm(dir, { recursive: true, force: true });
});

const item = (accountId: string, kcal: number) => ({ id: randomUUID(), accountId, date: "2026-11-22", name: "x", kcal, proteinG: 1 });

describe("reconciliation", () => {
  it("stores the sum of items for a day whose event never arrived, and clears it once stale", async () => {
    const accountId = randomUUID();
    await store.addItems([item(accountId, 300)]);
    await store.addItems([item(accountId, 200)]);
    expect((await store.recentTotals(accountId, 60)).stored).toEqual([]);

    expect(await reconcileTotals(store)).toBeGreaterThanOrEqual(1);
    expect((await store.recentTotals(accountId, 60)).stored).toEqual([{ date: "2026-11-22", kcal: 500, proteinG: 2 }]);
    expect(await store.mismatchedDays()).toEqual([]);
    // Still pending: its event may yet come.
    expect((await store.recentTotals(accountId, 60)).fresh.size).toBe(1);

    await reconcileTotals(store, Date.now() + STALE_PENDING_MS + 1000);
    expect((await store.recentTotals(accountId, 60)).fresh.size).toBe(0);
  });

  it("repairs nothing when every total equals its items", async () => {
    const accountId = randomUUID();
    await store.addItems([item(accountId, 100)]);
    await reconcileTotals(store, Date.now() + STALE_PENDING_MS + 1000);
    expect(await reconcileTotals(store, Date.now() + STALE_PENDING_MS + 1000)).toBe(0);
  });
});
