import type { Database } from "@fit/db";
import { defaultProfile, type Profile } from "@fit/contracts";
import { localDay } from "../domain/calendar.ts";
import { Prisma, type PrismaClient } from "./generated/client.ts";
import { profileView, type ProfileRow } from "./profile-view.ts";

export interface Reading {
  id: string;
  ts: number;
  weightKg: number;
}

type DaysRow = { [K in keyof ProfileRow]: ProfileRow[K] | null } & { daysZone: string | null; days: [string, number, number][] | null };

/** Zones each account's day rows are in, as this process last saw them; a stale one is caught by the statement. */
const REMEMBERED_ZONES = 50_000;

/**
 * The readings and their day rows (docs/decisions/0087-insights-weight-days.md): each reading carries its local
 * day, computed here with the same rule as every answer (`localDay`), and `weight_day` the sum and count of each
 * day, changed in the same statement or transaction as the readings. Every write locks the account's
 * `weight_day_zone` row, shared, and names the zone it computed days in; a rebuild holds it exclusively, so a write
 * either lands before the rebuild reads the readings or sees the new zone, finds no row, and is tried again.
 */
export const createWeightDays = (db: Database, prisma: PrismaClient) => {
  const zones = new Map<string, string>();
  const rememberZone = (accountId: string, zone: string) => {
    if (zones.size >= REMEMBERED_ZONES && !zones.has(accountId)) zones.delete(zones.keys().next().value!);
    zones.set(accountId, zone);
  };

  /** Every reading of the account regrouped in its profile's zone now; resolves that zone. */
  const rebuild = (accountId: string) =>
    prisma.$transaction(async (tx) => {
      // The lock first: the readings read below then include every write that came before it.
      await tx.$executeRaw`INSERT INTO weight_day_zone (account_id, time_zone) VALUES (${accountId}::uuid, '')
        ON CONFLICT (account_id) DO UPDATE SET time_zone = weight_day_zone.time_zone`;
      const [profile] = await tx.$queryRaw<{ time_zone: string }[]>`SELECT time_zone FROM profile WHERE account_id = ${accountId}::uuid`;
      const zone = profile?.time_zone ?? defaultProfile.timeZone;
      const readings = await tx.$queryRaw<{ id: string; ts: Date }[]>`SELECT id::text, ts FROM weight_reading WHERE account_id = ${accountId}::uuid`;
      await tx.$executeRaw`UPDATE weight_reading w SET day = n.day
        FROM unnest(${readings.map((r) => r.id)}::uuid[], ${readings.map((r) => localDay(r.ts.getTime(), zone))}::date[]) AS n(id, day)
        WHERE w.id = n.id AND w.day IS DISTINCT FROM n.day`;
      await tx.$executeRaw`DELETE FROM weight_day WHERE account_id = ${accountId}::uuid`;
      await tx.$executeRaw`INSERT INTO weight_day (account_id, day, sum_kg, count)
        SELECT account_id, day, sum(weight_kg), count(*) FROM weight_reading WHERE account_id = ${accountId}::uuid GROUP BY account_id, day`;
      await tx.$executeRaw`UPDATE weight_day_zone SET time_zone = ${zone} WHERE account_id = ${accountId}::uuid`;
      rememberZone(accountId, zone);
      return zone;
    });

  const zoneOf = async (accountId: string) => {
    const known = zones.get(accountId);
    if (known !== undefined) return known;
    const [row] = await db.query<{ zone: string }>(Prisma.sql`SELECT time_zone AS zone FROM weight_day_zone WHERE account_id = ${accountId}::uuid`);
    if (!row || row.zone === "") return rebuild(accountId);
    rememberZone(accountId, row.zone);
    return row.zone;
  };

  /** Runs `write` with the zone the account's days are in, again with a fresh one while it answers that the zone moved. */
  const inZone = async (accountId: string, write: (zone: string) => Promise<boolean>) => {
    for (;;) {
      if (await write(await zoneOf(accountId))) return;
      zones.delete(accountId);
    }
  };

  // Every change to a day, taking readings away as well, is an upsert of its difference: ON CONFLICT acts on the
  // row as last committed, which a plain UPDATE that waited for the zone lock would not see if a rebuild wrote it.
  // A day whose readings all went keeps its row at count 0; its next reading starts the sum afresh, not from the
  // residue of float subtractions. An event's write stamps the day now (the column's default); a repair's writes
  // give '-infinity' and so keep the stamp.
  const addToDays = Prisma.sql`ON CONFLICT (account_id, day) DO UPDATE SET
    sum_kg = CASE WHEN weight_day.count = 0 THEN EXCLUDED.sum_kg ELSE weight_day.sum_kg + EXCLUDED.sum_kg END,
    count = weight_day.count + EXCLUDED.count,
    changed_at = greatest(weight_day.changed_at, EXCLUDED.changed_at)`;

  /**
   * The profile and the mean weight of each local day in [from, to] with readings, oldest first: one statement on
   * the driver, since every dashboard asks (docs/decisions/0036-hot-paths-on-the-driver.md). Days kept in another
   * zone than the profile's (a zone change another replica has not regrouped yet, or readings stored before days
   * were kept) are regrouped first.
   */
  const read = async (accountId: string, from: string, to: string): Promise<{ profile: Profile; days: { date: string; kg: number }[] }> => {
    const [row] = await db.query<DaysRow>(Prisma.sql`
      SELECT p.height_cm AS "heightCm", p.birth_year AS "birthYear", p.sex, p.activity_level AS "activityLevel", p.units,
             p.time_zone AS "timeZone", p.first_day_of_week AS "firstDayOfWeek",
             (SELECT time_zone FROM weight_day_zone WHERE account_id = ${accountId}::uuid) AS "daysZone",
             (SELECT json_agg(json_build_array(day, sum_kg, count) ORDER BY day) FROM weight_day
               WHERE account_id = ${accountId}::uuid AND day BETWEEN ${from}::date AND ${to}::date AND count > 0) AS days
      FROM (SELECT) AS one LEFT JOIN profile p ON p.account_id = ${accountId}::uuid`);
    const profile = profileView(row!.units === null ? null : (row as ProfileRow));
    if (row!.daysZone !== null && row!.daysZone !== profile.timeZone) {
      await rebuild(accountId);
      return read(accountId, from, to);
    }
    return { profile, days: (row!.days ?? []).map(([date, sum, count]) => ({ date, kg: sum / count })) };
  };

  /** One statement on the driver: runs for every weigh-in (docs/decisions/0036-hot-paths-on-the-driver.md). */
  const add = (accountId: string, { id, ts, weightKg }: Reading) =>
    inZone(accountId, async (zone) => {
      const [row] = await db.query<{ zoned: number }>(Prisma.sql`
        WITH z AS (SELECT account_id FROM weight_day_zone WHERE account_id = ${accountId}::uuid AND time_zone = ${zone} FOR SHARE),
        r AS (INSERT INTO weight_reading (id, account_id, ts, weight_kg, day)
              SELECT ${id}::uuid, account_id, ${new Date(ts)}, ${weightKg}, ${localDay(ts, zone)}::date FROM z
              ON CONFLICT (id) DO NOTHING RETURNING day, weight_kg),
        d AS (INSERT INTO weight_day (account_id, day, sum_kg, count) SELECT ${accountId}::uuid, day, weight_kg, 1 FROM r ${addToDays})
        SELECT count(*)::int AS zoned FROM z`);
      return row!.zoned > 0;
    });

  return {
    rebuild,
    read,
    add,

    /**
     * Several accounts' readings in one statement (a batch of weigh-in events, docs/decisions/0088-batched-event-handling.md),
     * each account's zone row locked shared in account order; the readings of an account whose zone moved meanwhile
     * go through `add` one by one, which learns the new zone.
     */
    async addMany(readings: (Reading & { accountId: string })[]) {
      const unique = [...new Map(readings.map((r) => [r.id, r])).values()];
      const accounts = [...new Set(unique.map((r) => r.accountId))].sort();
      const zoneByAccount = new Map<string, string>();
      for (const accountId of accounts) zoneByAccount.set(accountId, await zoneOf(accountId));
      const zonesOf = unique.map((r) => zoneByAccount.get(r.accountId)!);
      const [row] = await db.query<{ moved: string[] }>(Prisma.sql`
        WITH n AS (SELECT * FROM unnest(${unique.map((r) => r.id)}::uuid[], ${unique.map((r) => r.accountId)}::uuid[],
                     ${unique.map((r) => new Date(r.ts).toISOString())}::timestamptz[], ${unique.map((r) => r.weightKg)}::float8[],
                     ${unique.map((r, i) => localDay(r.ts, zonesOf[i]!))}::date[], ${zonesOf}::text[]) AS n(id, account_id, ts, weight_kg, day, zone)),
        z AS (SELECT account_id, time_zone FROM weight_day_zone WHERE account_id = ANY(${accounts}::uuid[]) ORDER BY account_id FOR SHARE),
        r AS (INSERT INTO weight_reading (id, account_id, ts, weight_kg, day)
              SELECT n.id, n.account_id, n.ts, n.weight_kg, n.day FROM n JOIN z ON z.account_id = n.account_id AND z.time_zone = n.zone
              -- In id order: two replicas inserting one redelivered reading each wait on the other's row otherwise.
              ORDER BY n.id
              ON CONFLICT (id) DO NOTHING RETURNING account_id, day, weight_kg),
        d AS (INSERT INTO weight_day (account_id, day, sum_kg, count)
              SELECT account_id, day, sum(weight_kg), count(*) FROM r GROUP BY account_id, day ORDER BY account_id, day ${addToDays})
        SELECT coalesce(array_agg(DISTINCT n.account_id::text), '{}') AS moved FROM n
        WHERE NOT EXISTS (SELECT 1 FROM z WHERE z.account_id = n.account_id AND z.time_zone = n.zone)`);
      const moved = new Set(row!.moved);
      for (const reading of unique) {
        if (!moved.has(reading.accountId)) continue;
        zones.delete(reading.accountId);
        await add(reading.accountId, reading);
      }
    },

    /** The reading's day loses it; the reading goes even when the account has no day rows yet. */
    async delete(accountId: string, id: string) {
      await db.query(Prisma.sql`
        WITH z AS (SELECT account_id FROM weight_day_zone WHERE account_id = ${accountId}::uuid FOR SHARE),
        r AS (DELETE FROM weight_reading WHERE account_id = ${accountId}::uuid AND id = ${id}::uuid AND (SELECT count(*) FROM z) >= 0
              RETURNING day, weight_kg)
        INSERT INTO weight_day (account_id, day, sum_kg, count) SELECT ${accountId}::uuid, day, -weight_kg, -1 FROM r WHERE day IS NOT NULL ${addToDays}`);
    },

    /**
     * The account's readings in [from, to) become exactly `readings`, body-metrics' answer asked for at `askedAt`
     * (the database's clock, `clock()`): those already there unchanged stay, the others go and the new come, each
     * day's row following, except on a day an event changed since `askedAt`, which the answer may not hold yet: a
     * weigh-in logged or deleted while the repair asked is neither taken back nor brought back. The zone row is
     * locked exclusively first, so events wait, and two repairs or back-fills of one account run one after the
     * other. Resolves how many of the account's days events changed since `askedAt` (0: the answer was taken
     * whole), for the caller to ask again.
     */
    replace: async (accountId: string, from: number, to: number, readings: Reading[], askedAt: string) => {
      const [ids, tss, kgs] = [readings.map((r) => r.id), readings.map((r) => new Date(r.ts).toISOString()), readings.map((r) => r.weightKg)];
      let changedSince = 0;
      const changedDay = (day: Prisma.Sql) => Prisma.sql`EXISTS (SELECT 1 FROM weight_day d
        WHERE d.account_id = ${accountId}::uuid AND d.day = ${day} AND d.changed_at >= ${askedAt}::timestamptz)`;
      await inZone(accountId, (zone) =>
        prisma.$transaction(async (tx) => {
          const [locked] = await tx.$queryRaw<unknown[]>`SELECT 1 FROM weight_day_zone WHERE account_id = ${accountId}::uuid AND time_zone = ${zone} FOR UPDATE`;
          if (!locked) return false;
          // Statements after the lock's: each reads what every event before it committed.
          const [{ changed }] = await tx.$queryRaw<[{ changed: number }]>`
            WITH gone AS (DELETE FROM weight_reading w WHERE w.account_id = ${accountId}::uuid
                            AND w.ts >= ${new Date(from)} AND w.ts < ${new Date(to)}
                            AND (w.id, w.ts, w.weight_kg) NOT IN (SELECT * FROM unnest(${ids}::uuid[], ${tss}::timestamptz[], ${kgs}::float8[]))
                            AND NOT ${changedDay(Prisma.sql`w.day`)}
                          RETURNING w.day, w.weight_kg),
            d AS (INSERT INTO weight_day (account_id, day, sum_kg, count, changed_at)
                  SELECT ${accountId}::uuid, day, -sum(weight_kg), -count(*), '-infinity' FROM gone WHERE day IS NOT NULL GROUP BY day ORDER BY day ${addToDays})
            SELECT count(*)::int AS changed FROM weight_day WHERE account_id = ${accountId}::uuid AND changed_at >= ${askedAt}::timestamptz`;
          changedSince = changed;
          await tx.$executeRaw`
            WITH r AS (INSERT INTO weight_reading (id, account_id, ts, weight_kg, day)
                       SELECT n.id, ${accountId}::uuid, n.ts, n.kg, n.day
                       FROM unnest(${ids}::uuid[], ${tss}::timestamptz[], ${kgs}::float8[], ${readings.map((r) => localDay(r.ts, zone))}::date[]) AS n(id, ts, kg, day)
                       WHERE NOT ${changedDay(Prisma.sql`n.day`)}
                       ON CONFLICT (id) DO NOTHING RETURNING day, weight_kg)
            INSERT INTO weight_day (account_id, day, sum_kg, count, changed_at)
            SELECT ${accountId}::uuid, day, sum(weight_kg), count(*), '-infinity' FROM r GROUP BY day ORDER BY day ${addToDays}`;
          return true;
        }),
      );
      return changedSince;
    },

    /** The account's rows go, its zone row first (the lock every write takes). */
    async erase(tx: Prisma.TransactionClient, accountId: string) {
      await tx.$executeRaw`DELETE FROM weight_day_zone WHERE account_id = ${accountId}::uuid`;
      await tx.$executeRaw`DELETE FROM weight_day WHERE account_id = ${accountId}::uuid`;
    },

    forget: (accountId: string) => zones.delete(accountId),
  };
};

export type WeightDays = ReturnType<typeof createWeightDays>;
