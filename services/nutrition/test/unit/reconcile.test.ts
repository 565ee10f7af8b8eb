import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate, openDatabase, servicePrisma, type Database } from "@fit/db";
import { reconcileTotals, STALE_PENDING_MS } from "../../src/handlers/reconcile.ts";
import { PrismaClient } from "../../src/store/generated/client.ts";
import { createStore, type Store } from "../../src/store/store.ts";

const prismaDir = fileURLToPath(new URL("../../prisma/", import.meta.url));
let dir: string;
let db: Database;
let store: Store;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "fit-reconcile-"));
  db = await openDatabase({ dataDir: join(dir, "db"), schema: "nutrition" });
  await migrate(db, servicePrisma(prismaDir));
  store = createStore(db);
});
afterAll(async () => {
  await store.close();
  await db.close();
  await rm(dir, { recursive: true, force: true });
});

const DAY_MS = 86_400_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY_MS).toISOString().slice(0, 10);
const today = daysAgo(0);
const windowDays = 14;
const item = (accountId: string, kcal: number, date = today) => ({ id: randomUUID(), accountId, date, name: "x", kcal, proteinG: 1 });
/** The stored total of two kcal-and-protein items: their macros are unknown, and each counts as one without them. */
const kcalAndProteinDay = { date: today, kcal: 500, proteinG: 2, fatG: null, carbsG: null, fiberG: null, macrosUnknownItems: 2 };
/** Options for a pass run after every day pending now has gone stale. */
const later = () => ({ windowDays, now: Date.now() + STALE_PENDING_MS + 1000 });

/** Stored totals that no longer equal their items, with no day pending: drift only a comparison finds. */
const drift = (accountId: string) =>
  new PrismaClient({ adapter: db.adapter }).$executeRaw`UPDATE daily_total SET kcal = kcal + 1 WHERE account_id = ${accountId}::uuid`;

describe("roll-up", () => {
  it("sums a day for the event it is pending on only, so a consumer behind a burst sums it once", async () => {
    const accountId = randomUUID();
    const pendingEvent = async () =>
      (await store.stalePendingDays(new Date(Date.now() + DAY_MS))).find((d) => d.accountId === accountId)?.eventId;
    await store.addItems([item(accountId, 300)]);
    const first = await pendingEvent();
    await store.addItems([item(accountId, 200)]);
    const last = await pendingEvent();
    expect(first && last && first !== last).toBe(true);

    // The first write's event, handled after the second write: the second's event will sum the day.
    await store.recomputeDay(accountId, today, first);
    expect((await store.recentTotals(accountId, 60)).stored).toEqual([]);
    expect(await pendingEvent()).toBe(last);

    await store.recomputeDay(accountId, today, last);
    expect((await store.recentTotals(accountId, 60)).stored).toEqual([kcalAndProteinDay]);
    expect(await pendingEvent()).toBeUndefined();
    // Redelivered after the day was cleared: nothing left to do, the total stays.
    await store.recomputeDay(accountId, today, last);
    expect((await store.recentTotals(accountId, 60)).stored).toEqual([kcalAndProteinDay]);
  });
});

describe("roll-up of a batch of events", () => {
  it("sums each day once, for the event it is still pending on, and leaves the days of replaced events", async () => {
    const [one, other] = [randomUUID(), randomUUID()];
    const pending = async (accountId: string) =>
      (await store.stalePendingDays(new Date(Date.now() + DAY_MS))).filter((d) => d.accountId === accountId).map(({ date, eventId }) => ({ date, eventId }));
    await store.addItems([item(one, 300)]);
    const [replaced] = await pending(one);
    await store.addItems([item(one, 200), item(one, 100, daysAgo(1))]);
    await store.addItems([item(other, 400)]);
    const current = [...(await pending(one)), ...(await pending(other))];
    expect(current).toHaveLength(3);

    // The replaced event alone: its day waits for the event that replaced it.
    await store.recomputeDays([{ accountId: one, ...replaced! }]);
    expect((await store.recentTotals(one, 60)).stored).toEqual([]);

    const batch = [{ accountId: one, ...replaced! }, ...current.slice(0, 2).map((d) => ({ accountId: one, ...d })), { accountId: other, ...current[2]! }];
    await store.recomputeDays([...batch, batch[1]!]);
    expect((await store.recentTotals(one, 60)).stored.map((d) => [d.date, d.kcal])).toEqual([[today, 500], [daysAgo(1), 100]]);
    expect((await store.recentTotals(other, 60)).stored.map((d) => [d.date, d.kcal])).toEqual([[today, 400]]);
    expect([...(await pending(one)), ...(await pending(other))]).toEqual([]);
  });
});

describe("reconciliation", () => {
  it("stores the sum of items for a day whose event never arrived, and clears it once stale", async () => {
    const accountId = randomUUID();
    await store.addItems([item(accountId, 300)]);
    await store.addItems([item(accountId, 200)]);
    expect((await store.recentTotals(accountId, 60)).stored).toEqual([]);

    expect(await reconcileTotals(store, { windowDays })).toBeGreaterThanOrEqual(1);
    expect((await store.recentTotals(accountId, 60)).stored).toEqual([kcalAndProteinDay]);
    expect((await store.mismatchedDays(daysAgo(windowDays))).filter((d) => d.accountId === accountId)).toEqual([]);
    // Still pending: its event may yet come.
    expect((await store.recentTotals(accountId, 60)).fresh.size).toBe(1);

    await reconcileTotals(store, later());
    expect((await store.recentTotals(accountId, 60)).fresh.size).toBe(0);
  });

  it("repairs nothing when every total equals its items", async () => {
    const accountId = randomUUID();
    await store.addItems([item(accountId, 100)]);
    await reconcileTotals(store, later());
    expect(await reconcileTotals(store, later())).toBe(0);
  });

  it("compares totals with their items only for days inside the window", async () => {
    const accountId = randomUUID();
    const [recent, old] = [daysAgo(3), daysAgo(windowDays + 5)];
    await store.addItems([item(accountId, 100, recent)]);
    await store.addItems([item(accountId, 100, old)]);
    // A day whose event was lost is applied whatever its date.
    expect(await reconcileTotals(store, later())).toBeGreaterThanOrEqual(2);
    expect((await store.recentTotals(accountId, 60)).stored.map((t) => t.date)).toEqual([recent, old]);
    await drift(accountId);
    const mine = async () => (await store.mismatchedDays("0000-01-01")).filter((d) => d.accountId === accountId).map((d) => d.date);
    expect(await mine()).toEqual(expect.arrayContaining([recent, old]));
    await reconcileTotals(store, later());
    expect(await mine()).toEqual([old]);
  });

  it("runs one pass at a time: a second reconciler started during a pass does nothing", async () => {
    const accountId = randomUUID();
    await store.addItems([item(accountId, 120)]);
    let entered!: () => void;
    let release!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow: Store = { ...store, stalePendingDays: async (olderThan) => (entered(), await gate, store.stalePendingDays(olderThan)) };
    const first = reconcileTotals(slow, later());
    await inside;
    expect(await reconcileTotals(store, later())).toBeNull();
    release();
    expect(await first).toBeGreaterThanOrEqual(1);
  });
});
