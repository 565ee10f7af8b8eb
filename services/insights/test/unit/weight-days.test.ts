import { randomUUID } from "node:crypto";
import { setTimeout } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { defaultProfile } from "@fit/contracts";
import { storeOnMemoryDatabase } from "@fit/testing";
import { insightsDatabase } from "../../src/app.ts";
import { localDay } from "../../src/domain/calendar.ts";
import { Prisma } from "../../src/store/generated/client.ts";
import { createStore, type Reading } from "../../src/store/store.ts";

const memory = storeOnMemoryDatabase(insightsDatabase, createStore);

const HOUR_MS = 3_600_000;
const START = Date.parse("2026-08-01T00:00:00Z");
const [FROM, TO] = ["2026-07-01", "2026-12-31"];

/** The days as the answers used to compute them: every reading's local day, each day's mean, oldest first. */
const expectedDays = (readings: Iterable<Reading>, timeZone: string) => {
  const days = new Map<string, { sum: number; count: number }>();
  for (const { ts, weightKg } of readings) {
    const date = localDay(ts, timeZone);
    const day = days.get(date) ?? { sum: 0, count: 0 };
    days.set(date, { sum: day.sum + weightKg, count: day.count + 1 });
  }
  return [...days].map(([date, { sum, count }]) => ({ date, kg: sum / count })).sort((a, b) => a.date.localeCompare(b.date));
};

/** A reading every 5 hours from START, so each day's readings straddle local midnights in any zone; quarter kilograms, exact in any order. */
const readingsFrom = (first: number, count: number): Reading[] =>
  Array.from({ length: count }, (_, i) => ({ id: randomUUID(), ts: START + (first + i) * 5 * HOUR_MS, weightKg: 70 + ((first + i) % 13) * 0.25 }));

const daysOf = async (accountId: string) => (await memory.store.weightDaysOf(accountId, FROM, TO)).days;

describe("insights' day rows (docs/decisions/0087-insights-weight-days.md)", () => {
  it("follow adds, a redelivered add, deletes and a repair, and answer what grouping the readings answers", async () => {
    const accountId = randomUUID();
    const kept = new Map<string, Reading>();
    for (const reading of readingsFrom(0, 200)) {
      await memory.store.addReading(accountId, reading);
      kept.set(reading.id, reading);
    }
    const first = [...kept.values()][0]!;
    await memory.store.addReading(accountId, first);
    expect(await daysOf(accountId)).toEqual(expectedDays(kept.values(), "UTC"));

    for (const id of [...kept.keys()].filter((_, i) => i % 3 === 0)) {
      await memory.store.deleteReading(accountId, id);
      kept.delete(id);
    }
    await memory.store.deleteReading(accountId, randomUUID());
    expect(await daysOf(accountId)).toEqual(expectedDays(kept.values(), "UTC"));

    // A repair of [reading 50, reading 150): some stay, some go, one moves within the range, new ones come.
    const [from, to] = [START + 50 * 5 * HOUR_MS, START + 150 * 5 * HOUR_MS];
    const inRange = [...kept.values()].filter((r) => r.ts >= from && r.ts < to);
    const answer = [
      ...inRange.filter((_, i) => i % 2 === 0),
      { ...inRange[1]!, ts: inRange[1]!.ts + HOUR_MS, weightKg: 90 },
      ...readingsFrom(60, 30).map((r) => ({ ...r, ts: r.ts + 2 * HOUR_MS })),
    ];
    await memory.store.replaceReadings(accountId, from, to, answer, await memory.store.clock());
    for (const r of inRange) kept.delete(r.id);
    for (const r of answer) kept.set(r.id, r);
    expect(await daysOf(accountId)).toEqual(expectedDays(kept.values(), "UTC"));

    // The same answer again changes nothing.
    await memory.store.replaceReadings(accountId, from, to, answer, await memory.store.clock());
    expect(await daysOf(accountId)).toEqual(expectedDays(kept.values(), "UTC"));
  });

  it("keep what an event did after a repair's answer was asked for, and take the answer on every other day", async () => {
    const accountId = randomUUID();
    const stored = readingsFrom(0, 20);
    for (const reading of stored) await memory.store.addReading(accountId, reading);
    // PGlite's clock counts milliseconds: a day changed in the millisecond the answer is asked for counts as changed after it.
    await setTimeout(5);
    // Body-metrics' answer, asked for now: every reading, and one whose event was lost (day 2).
    const askedAt = await memory.store.clock();
    const lost = { ...readingsFrom(11, 1)[0]!, ts: START + 56 * HOUR_MS };
    const answer = [...stored, lost];
    // While it is on its way, a weigh-in is logged (day 4) and one deleted (day 1).
    const [logged] = readingsFrom(20, 1);
    await memory.store.addReading(accountId, logged!);
    await memory.store.deleteReading(accountId, stored[5]!.id);

    const [from, to] = [START, START + 200 * HOUR_MS];
    expect(await memory.store.replaceReadings(accountId, from, to, answer, askedAt)).toBe(2);
    const truth = [...stored.filter((_, i) => i !== 5), lost, logged!];
    expect(await daysOf(accountId)).toEqual(expectedDays(truth, "UTC"));

    // Asked again, the answer holds both events: nothing was changed since, and nothing changes.
    expect(await memory.store.replaceReadings(accountId, from, to, truth, await memory.store.clock())).toBe(0);
    expect(await daysOf(accountId)).toEqual(expectedDays(truth, "UTC"));
  });

  it("follow a batch of several accounts' readings, a reading twice in it or already stored, and an account whose zone another replica moved", async () => {
    const [utc, kathmandu, moved] = [randomUUID(), randomUUID(), randomUUID()];
    await memory.store.replaceProfile(kathmandu, { ...defaultProfile, timeZone: "Asia/Kathmandu" });
    const kept = new Map<string, Reading[]>([[utc, readingsFrom(0, 40)], [kathmandu, readingsFrom(10, 40)], [moved, readingsFrom(20, 40)]]);
    const tagged = (accountId: string, readings: Reading[]) => readings.map((r) => ({ ...r, accountId }));
    await memory.store.addReading(utc, kept.get(utc)![0]!);
    await memory.store.addReading(moved, kept.get(moved)![0]!);

    // Another replica changes the zone: this store still remembers UTC for `moved`.
    const otherReplica = createStore(memory.db);
    await otherReplica.replaceProfile(moved, { ...defaultProfile, timeZone: "America/St_Johns" });
    const batch = [...kept].flatMap(([accountId, readings]) => tagged(accountId, readings));
    await memory.store.addReadings([...batch, ...tagged(kathmandu, kept.get(kathmandu)!.slice(0, 3))].sort((a, b) => a.ts - b.ts));
    await otherReplica.close();

    expect(await daysOf(utc)).toEqual(expectedDays(kept.get(utc)!, "UTC"));
    expect(await daysOf(kathmandu)).toEqual(expectedDays(kept.get(kathmandu)!, "Asia/Kathmandu"));
    expect(await daysOf(moved)).toEqual(expectedDays(kept.get(moved)!, "America/St_Johns"));
  });

  it("regroup every reading when the profile's zone changes, and in the new zone from then on", async () => {
    const accountId = randomUUID();
    const kept = readingsFrom(0, 150);
    for (const reading of kept) await memory.store.addReading(accountId, reading);
    for (const timeZone of ["Pacific/Kiritimati", "America/St_Johns", "Asia/Kathmandu"]) {
      await memory.store.replaceProfile(accountId, { ...defaultProfile, timeZone });
      const more = readingsFrom(kept.length, 10);
      for (const reading of more) await memory.store.addReading(accountId, reading);
      kept.push(...more);
      expect(await daysOf(accountId)).toEqual(expectedDays(kept, timeZone));
    }
  });

  it("are regrouped at the next read when another process changed the zone, or when the readings predate them", async () => {
    const accountId = randomUUID();
    const kept = readingsFrom(0, 100);
    for (const reading of kept) await memory.store.addReading(accountId, reading);
    // A zone written behind this store's back, as another replica's or an older version's write would leave it.
    await memory.db.query(Prisma.sql`INSERT INTO profile (account_id, units, time_zone, first_day_of_week, updated_at)
      VALUES (${accountId}::uuid, 'metric', 'Asia/Tokyo', 'monday', now())`);
    expect(await daysOf(accountId)).toEqual(expectedDays(kept, "Asia/Tokyo"));

    await memory.db.query(Prisma.sql`UPDATE weight_reading SET day = NULL WHERE account_id = ${accountId}::uuid`);
    await memory.db.query(Prisma.sql`DELETE FROM weight_day WHERE account_id = ${accountId}::uuid`);
    await memory.db.query(Prisma.sql`UPDATE weight_day_zone SET time_zone = '' WHERE account_id = ${accountId}::uuid`);
    expect(await daysOf(accountId)).toEqual(expectedDays(kept, "Asia/Tokyo"));
  });

  it("go with the account's erasure, and start afresh at its next reading", async () => {
    const accountId = randomUUID();
    for (const reading of readingsFrom(0, 20)) await memory.store.addReading(accountId, reading);
    await memory.store.accountData.deleteAccount(accountId);
    const left = await memory.db.query<{ n: number }>(Prisma.sql`SELECT
      (SELECT count(*) FROM weight_day WHERE account_id = ${accountId}::uuid)::int +
      (SELECT count(*) FROM weight_day_zone WHERE account_id = ${accountId}::uuid)::int +
      (SELECT count(*) FROM weight_reading WHERE account_id = ${accountId}::uuid)::int AS n`);
    expect(left[0]!.n).toBe(0);
    expect(await daysOf(accountId)).toEqual([]);

    const again = readingsFrom(40, 5);
    for (const reading of again) await memory.store.addReading(accountId, reading);
    expect(await daysOf(accountId)).toEqual(expectedDays(again, "UTC"));
  });
});
