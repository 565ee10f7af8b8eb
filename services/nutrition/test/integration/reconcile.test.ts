import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openReplicaDatabases } from "@fit/testing";
import { nutritionDatabase } from "../../src/app.ts";
import { reconcileTotals, STALE_PENDING_MS } from "../../src/handlers/reconcile.ts";
import { createStore, type Store } from "../../src/store/store.ts";

// Two replicas of nutrition on one PostgreSQL database: each with its own pool, as two processes would have.
let databases: Awaited<ReturnType<typeof openReplicaDatabases>>;
let replicas: Store[];

beforeAll(async () => {
  databases = await openReplicaDatabases(nutritionDatabase, 2, 2);
  replicas = databases.replicas.map((db) => createStore(db));
});
afterAll(async () => {
  await Promise.all(replicas.map((store) => store.close()));
  await databases.close();
});

const options = () => ({ windowDays: 14, now: Date.now() + STALE_PENDING_MS + 1000 });

describe("reconciliation across replicas", () => {
  it("runs on one replica at a time: the other's pass, started meanwhile, does nothing", async () => {
    const [first, second] = replicas as [Store, Store];
    const accountId = randomUUID();
    await first.addItems([{ id: randomUUID(), accountId, date: new Date().toISOString().slice(0, 10), name: "rice", kcal: 200, proteinG: 4 }]);
    let entered!: () => void;
    let release!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const gate = new Promise<void>((resolve) => (release = resolve));
    const held: Store = { ...first, stalePendingDays: async (olderThan) => (entered(), await gate, first.stalePendingDays(olderThan)) };

    const running = reconcileTotals(held, options());
    await inside;
    expect(await reconcileTotals(second, options()), "the second replica skips while the first holds the lock").toBeNull();
    release();
    expect(await running).toBe(1);
    expect(await reconcileTotals(second, options()), "the lock is free once the first pass ended").toBe(0);
  });
});
