import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate, openDatabase, type Database } from "@fit/db";
import { DAY_MS, endOfDay, summarizeWeights, summaryOf, type Reading } from "../../src/domain/weight-summary.ts";
import { createStore, type Store } from "../../src/store/store.ts";

const prismaDir = fileURLToPath(new URL("../../prisma/", import.meta.url));
let db: Database;
let store: Store;

beforeAll(async () => {
  db = await openDatabase({ schema: "body_metrics", dataDir: "memory://" });
  await migrate(db, { schemaPath: `${prismaDir}schema.prisma`, migrationsDir: `${prismaDir}migrations` });
  store = createStore(db);
});
afterAll(async () => {
  await store?.close();
  await db?.close();
});

const LAST_DAY = "2026-11-22";
const last = endOfDay(LAST_DAY);

/**
 * 1 200 readings within the last day (a scale posting every minute), one every 3 hours over the 120 days
 * before, and a few with a body-fat figure and a note: weights in quarter kilograms, so sums are exact in
 * either order.
 */
const history = (): Reading[] => {
  const readings: Reading[] = [];
  for (let i = 0; i < 1_200; i++) readings.push({ ts: last - 1 - i * 60_000, weightKg: 70 + (i % 37) * 0.25, bodyFatPct: null, note: null });
  for (let i = 0; i < 120 * 8; i++) {
    const tagged = i % 47 === 0;
    readings.push({ ts: last - DAY_MS - 1 - i * 10_800_000, weightKg: 75 + (i % 29) * 0.25, bodyFatPct: tagged ? 20 + (i % 5) : null, note: tagged ? `n${i}` : null });
  }
  return readings;
};

describe("the weight summary aggregated in SQL", () => {
  it("gives the figures of the pure computation over thousands of readings, for any day", async () => {
    const accountId = randomUUID();
    const readings = history();
    for (let i = 0; i < readings.length; i += 200) {
      await Promise.all(readings.slice(i, i + 200).map((r) => store.addReading({ ...r, id: randomUUID(), accountId, source: "scale" })));
    }
    const days = [LAST_DAY, "2026-11-21", "2026-10-01", "2026-08-01", "2026-07-20", "2026-07-01", "2027-03-01"];
    for (const date of days) {
      const dayEnd = endOfDay(date);
      const aggregates = await store.weightAggregates(accountId, dayEnd);
      const expected = summarizeWeights(readings.filter((r) => r.ts < dayEnd), dayEnd);
      expect(aggregates && summaryOf(aggregates), date).toEqual(expected);
    }
    expect(summarizeWeights(readings, last)?.trend).toHaveLength(90);
  }, 120_000);

  it("is null for an account without readings before the day", async () => {
    const accountId = randomUUID();
    await store.addReading({ id: randomUUID(), accountId, ts: last + 1, weightKg: 80, bodyFatPct: null, note: null, source: "manual" });
    expect(await store.weightAggregates(accountId, last)).toBeNull();
    expect(await store.weightAggregates(randomUUID(), last)).toBeNull();
  });
});
