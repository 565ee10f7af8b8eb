import { randomUUID } from "node:crypto";
import { cp, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { migrate, openDatabase, servicePrisma } from "@fit/db";
import { storeOnMemoryDatabase } from "@fit/testing";
import { bodyMetricsDatabase } from "../../src/app.ts";
import { DAY_MS, endOfDay, summarizeWeights, summaryOf, type Reading } from "../../src/domain/weight-summary.ts";
import { Prisma } from "../../src/store/generated/client.ts";
import { createStore, type Store } from "../../src/store/store.ts";

const { schema, prismaDir } = bodyMetricsDatabase;
const memory = storeOnMemoryDatabase(bodyMetricsDatabase, createStore);

const LAST_DAY = "2026-11-22";
/** A reading with neither body fat nor a note. */
const reading = (ts: number, weightKg: number): Reading => ({ ts, weightKg, bodyFatPct: null, note: null });
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
      await Promise.all(readings.slice(i, i + 200).map((r) => memory.store.addReading({ ...r, id: randomUUID(), accountId, source: "scale" })));
    }
    const days = [LAST_DAY, "2026-11-21", "2026-10-01", "2026-08-01", "2026-07-20", "2026-07-01", "2027-03-01"];
    for (const date of days) {
      const dayEnd = endOfDay(date);
      const aggregates = await memory.store.weightAggregates(accountId, dayEnd);
      const expected = summarizeWeights(readings.filter((r) => r.ts < dayEnd), dayEnd);
      expect(aggregates && summaryOf(aggregates), date).toEqual(expected);
    }
    expect(summarizeWeights(readings, last)?.trend).toHaveLength(90);
  }, 120_000);

  it("is null for an account without readings before the day", async () => {
    const accountId = randomUUID();
    await memory.store.addReading({ id: randomUUID(), accountId, ts: last + 1, weightKg: 80, bodyFatPct: null, note: null, source: "manual" });
    expect(await memory.store.weightAggregates(accountId, last)).toBeNull();
    expect(await memory.store.weightAggregates(randomUUID(), last)).toBeNull();
  });

  it("stays true through deletes, a note's edit, a repeated scale reading, a reading moved to another day and concurrent writes", async () => {
    const accountId = randomUUID();
    const stored = new Map<string, Reading>();
    const add = async (r: Reading, externalId?: string) => {
      const id = randomUUID();
      const row = { ...r, id, accountId, source: "scale" as const };
      if (externalId === undefined) await memory.store.addReading(row);
      else if (!(await memory.store.ingestReading({ ...row, externalId }))) return;
      stored.set(id, r);
    };
    const expectSummariesOfStored = async (when: string) => {
      for (const date of [LAST_DAY, "2026-11-19", "2026-11-15"]) {
        const dayEnd = endOfDay(date);
        const aggregates = await memory.store.weightAggregates(accountId, dayEnd);
        expect(aggregates && summaryOf(aggregates), `${when}, ${date}`).toEqual(summarizeWeights([...stored.values()].filter((r) => r.ts < dayEnd), dayEnd));
      }
    };

    await Promise.all(Array.from({ length: 60 }, (_, i) => add(reading(last - 1 - i * 3_600_000, 80 + (i % 8) * 0.25))));
    await expectSummariesOfStored("after the inserts");

    const ids = [...stored.keys()];
    const newest = ids[0]!;
    await Promise.all([
      ...ids.slice(0, 30).filter((_, i) => i % 3 === 0).map((id) => memory.store.deleteReading(accountId, id).then(() => stored.delete(id))),
      ...Array.from({ length: 10 }, (_, i) => add(reading(last - 30 * 60_000 - i * 7_200_000, 82.5))),
    ]);
    expect(stored.has(newest), "the newest reading of the last day was deleted").toBe(false);
    await expectSummariesOfStored("after deletes among new readings");

    await add(reading(last - 5 * DAY_MS, 90), "scale-1");
    await add(reading(last - 5 * DAY_MS, 90), "scale-1");
    await expectSummariesOfStored("after a scale sent one reading twice");

    const edited = ids[1]!;
    expect(await memory.store.setReadingNote(accountId, edited, "after the gym")).toBe(true);
    stored.set(edited, { ...stored.get(edited)!, note: "after the gym" });
    await expectSummariesOfStored("after a note's edit");

    const moved = ids[2]!;
    await memory.db.query(Prisma.sql`UPDATE weight_reading SET ts = ts - interval '3 days', weight_kg = 70 WHERE id = ${moved}::uuid`);
    stored.set(moved, { ...stored.get(moved)!, ts: stored.get(moved)!.ts - 3 * DAY_MS, weightKg: 70 });
    await expectSummariesOfStored("after a reading moved three days back");
  });

  it("sums the last days from their readings and the older ones from the roll-up, before and after rolling it forward", async () => {
    const accountId = randomUUID();
    const now = Date.now();
    const readings = Array.from({ length: 20 * 12 }, (_, i) => reading(now - i * 7_200_000, 78 + (i % 11) * 0.25));
    await Promise.all(readings.map((r) => memory.store.addReading({ ...r, id: randomUUID(), accountId, source: "scale" })));
    const rollUp = () => memory.db.query<{ through: string }>(Prisma.sql`SELECT through::text FROM weight_roll_up WHERE account_id = ${accountId}::uuid`);
    expect(await rollUp(), "no range before the first read").toEqual([]);
    for (const round of ["the first reads (the first rolls the range forward)", "reads again"]) {
      for (const back of [0, 1, 2, 3, 4, 5, 9, 19, 25]) {
        const dayEnd = endOfDay(new Date(now - back * DAY_MS).toISOString().slice(0, 10));
        const aggregates = await memory.store.weightAggregates(accountId, dayEnd);
        expect(aggregates && summaryOf(aggregates), `${round}, ${back} days back`).toEqual(summarizeWeights(readings.filter((r) => r.ts < dayEnd), dayEnd));
      }
    }
    expect(await rollUp(), "the range ends four days before today").toEqual([{ through: new Date(now - 4 * DAY_MS).toISOString().slice(0, 10) }]);
    const kept = await memory.db.query<{ day: string }>(Prisma.sql`SELECT max(day)::text AS day FROM weight_day WHERE account_id = ${accountId}::uuid`);
    expect(kept, "the last three days are not kept").toEqual([{ day: new Date(now - 3 * DAY_MS).toISOString().slice(0, 10) }]);
  });

  it("gives every replica the same figures after any change to a kept day, though each holds the kept days it read", async () => {
    const accountId = randomUUID();
    const replicas = [memory.store, createStore(memory.db)];
    const now = Date.now();
    const stored = new Map<string, Reading>();
    const add = async (via: Store, r: Reading) => {
      const id = randomUUID();
      await via.addReading({ ...r, id, accountId, source: "scale" });
      stored.set(id, r);
      return id;
    };
    for (let i = 0; i < 40 * 4; i++) await add(memory.store, reading(now - i * 21_600_000, 78 + (i % 13) * 0.25));
    const today = endOfDay(new Date(now).toISOString().slice(0, 10));
    const expectEveryReplica = async (when: string) => {
      for (const [i, replica] of replicas.entries()) {
        for (const dayEnd of [today, today - 2 * DAY_MS, today - 20 * DAY_MS]) {
          const aggregates = await replica.weightAggregates(accountId, dayEnd);
          const expected = summarizeWeights([...stored.values()].filter((r) => r.ts < dayEnd), dayEnd);
          expect(aggregates && summaryOf(aggregates), `${when}, replica ${i}, ${new Date(dayEnd).toISOString()}`).toEqual(expected);
        }
      }
    };
    await expectEveryReplica("the first reads");
    await expectEveryReplica("reads again");

    const [writer, other] = replicas as [Store, Store];
    const backdated = await add(writer, reading(now - 10 * DAY_MS, 95));
    await expectEveryReplica("after a reading added ten days back");
    expect(await other.deleteReading(accountId, backdated)).toBe(true);
    stored.delete(backdated);
    await expectEveryReplica("after it was deleted");
    const moved = [...stored.keys()][60]!;
    await memory.db.query(Prisma.sql`UPDATE weight_reading SET weight_kg = 60 WHERE id = ${moved}::uuid`);
    stored.set(moved, { ...stored.get(moved)!, weightKg: 60 });
    await expectEveryReplica("after a kept reading's weight was changed");
    await writer.accountData.deleteAccount(accountId);
    stored.clear();
    await expectEveryReplica("after the account was erased");
    for (let i = 0; i < 20; i++) await add(writer, reading(now - i * DAY_MS, 70));
    await expectEveryReplica("after new readings of an erased account");
    await other.close();
  });

  it("reads the kept days it holds again only when their version has changed", async () => {
    const accountId = randomUUID();
    const now = Date.now();
    for (let i = 0; i < 20; i++) await memory.store.addReading({ id: randomUUID(), accountId, ts: now - i * DAY_MS, weightKg: 80, bodyFatPct: null, note: null, source: "manual" });
    const dayEnd = endOfDay(new Date(now).toISOString().slice(0, 10));
    const trendKg = async () => (await memory.store.weightAggregates(accountId, dayEnd))?.days.map((day) => day.sum / day.count);
    await trendKg();
    expect(await trendKg(), "read twice: the roll-up has rolled forward").toEqual(Array(20).fill(80));
    // The stored days changed behind the roll-up's back, as no write path does: the replica keeps what it holds.
    await memory.db.query(Prisma.sql`UPDATE weight_day SET sum_kg = 90 * count WHERE account_id = ${accountId}::uuid`);
    expect(await trendKg()).toEqual(Array(20).fill(80));
    await memory.db.query(Prisma.sql`UPDATE weight_roll_up SET version = nextval('weight_roll_up_version') WHERE account_id = ${accountId}::uuid`);
    expect((await trendKg())?.slice(0, 16), "the kept days read again under a new version").toEqual(Array(16).fill(90));
  });

  it("answers for the first and the last day a date can name", async () => {
    const accountId = randomUUID();
    const readings = [reading(Date.parse("1970-01-02T12:00:00Z"), 81), reading(last - 1, 79)];
    for (const r of readings) await memory.store.addReading({ ...r, id: randomUUID(), accountId, source: "manual" });
    expect(await memory.store.weightAggregates(accountId, endOfDay("0001-01-01"))).toBeNull();
    for (const date of ["1970-01-02", "9999-12-31"]) {
      const dayEnd = endOfDay(date);
      const aggregates = await memory.store.weightAggregates(accountId, dayEnd);
      expect(aggregates && summaryOf(aggregates), date).toEqual(summarizeWeights(readings.filter((r) => r.ts < dayEnd), dayEnd));
    }
  });

  it("forgets an erased account's days", async () => {
    const accountId = randomUUID();
    for (let i = 0; i < 5; i++) await memory.store.addReading({ id: randomUUID(), accountId, ts: last - 1 - i * DAY_MS, weightKg: 80, bodyFatPct: null, note: null, source: "manual" });
    expect(await memory.store.weightAggregates(accountId, last)).not.toBeNull();
    const rows = () => memory.db.query<{ n: number }>(Prisma.sql`
      SELECT (SELECT count(*) FROM weight_day WHERE account_id = ${accountId}::uuid)::int
           + (SELECT count(*) FROM weight_roll_up WHERE account_id = ${accountId}::uuid)::int AS n`);
    expect(await rows()).toEqual([{ n: 6 }]);
    await memory.store.accountData.deleteAccount(accountId);
    expect(await rows()).toEqual([{ n: 0 }]);
    expect(await memory.store.weightAggregates(accountId, last)).toBeNull();
  });
});

describe("the daily roll-up's migration", () => {
  it("sums the readings stored before it", async () => {
    const { schemaPath, migrationsDir: migrations } = servicePrisma(prismaDir);
    const older = await mkdtemp(path.join(tmpdir(), "body-metrics-migrations-"));
    const names = (await readdir(migrations)).sort();
    const rollUp = names.findIndex((name) => name.endsWith("_weight_day_roll_up"));
    expect(rollUp).toBeGreaterThan(0);
    for (const name of names.slice(0, rollUp)) await cp(path.join(migrations, name), path.join(older, name), { recursive: true });
    await cp(path.join(migrations, "migration_lock.toml"), path.join(older, "migration_lock.toml"));
    const before = await openDatabase({ schema, dataDir: "memory://" });
    try {
      await migrate(before, { schemaPath, migrationsDir: older });
      const accountId = randomUUID();
      const readings = history().slice(1_000, 1_400);
      await before.query(Prisma.sql`INSERT INTO weight_reading (id, account_id, ts, weight_kg, body_fat_pct, note, source)
        SELECT gen_random_uuid(), ${accountId}::uuid, to_timestamp(r.ts / 1000.0), r.kg, r.fat, r.note, 'scale'
        FROM unnest(${readings.map((r) => r.ts)}::float8[], ${readings.map((r) => r.weightKg)}::float8[],
                    ${readings.map((r) => r.bodyFatPct)}::float8[], ${readings.map((r) => r.note)}::text[]) AS r(ts, kg, fat, note)`);
      await migrate(before, { schemaPath, migrationsDir: migrations });
      const migrated = createStore(before);
      const aggregates = await migrated.weightAggregates(accountId, last);
      await migrated.close();
      expect(aggregates && summaryOf(aggregates)).toEqual(summarizeWeights(readings, last));
    } finally {
      await before.close();
      await rm(older, { recursive: true, force: true });
    }
  });
});
