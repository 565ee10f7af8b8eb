import { ping, runExclusively, type Database } from "@fit/db";
import { defaultProfile, type Profile } from "@fit/contracts";
import { Prisma, PrismaClient } from "./generated/client.ts";
import { accountData } from "./account-data.ts";
import { profileView } from "./profile-view.ts";
import { createWeightDays, type Reading } from "./weight-days.ts";

export type { Reading } from "./weight-days.ts";

export interface IntakeTotals {
  date: string;
  kcal: number;
  proteinG: number;
  itemCount: number;
  /** As nutrition judges it: marked complete, or unmarked with items (docs/decisions/0075). */
  counted: boolean;
}

/**
 * The only place that talks to the database. Every query is scoped by account. The read model's writes are
 * idempotent: a redelivered event, or a repair that finds what is already there, changes nothing.
 */
/** Accounts known to be back-filled, remembered so that each event and dashboard read does not ask the database again. */
const REMEMBERED_ACCOUNTS = 50_000;

export const createStore = (db: Database) => {
  const prisma = new PrismaClient({ adapter: db.adapter });
  const weightDays = createWeightDays(db, prisma);
  // Once back-filled an account stays so until it is deleted (its id is never reused), so a replica that missed the
  // deletion only skips a back-fill that would find nothing. Oldest forgotten first when full.
  const backfilled = new Set<string>();
  const remember = (accountId: string) => {
    if (backfilled.size >= REMEMBERED_ACCOUNTS) backfilled.delete(backfilled.values().next().value!);
    backfilled.add(accountId);
  };

  return {
    ping: () => ping(prisma),
    close: () => prisma.$disconnect(),
    accountData: accountData(prisma, weightDays, (accountId) => backfilled.delete(accountId)),
    exclusively: <T>(name: string, fn: () => Promise<T>) => runExclusively(db, name, fn),

    async getProfile(accountId: string): Promise<Profile> {
      return profileView(await prisma.profile.findUnique({ where: { accountId } }));
    },

    /** A changed zone regroups the account's readings into its days (docs/decisions/0087-insights-weight-days.md). */
    async replaceProfile(accountId: string, profile: Profile): Promise<Profile> {
      const before = await prisma.profile.findUnique({ where: { accountId }, select: { timeZone: true } });
      const stored = profileView(await prisma.profile.upsert({ where: { accountId }, create: { accountId, ...profile }, update: profile }));
      if ((before?.timeZone ?? defaultProfile.timeZone) !== stored.timeZone) await weightDays.rebuild(accountId);
      return stored;
    },

    addReading: (accountId: string, reading: Reading) => weightDays.add(accountId, reading),

    /** Readings of any accounts, in one statement: a batch of weigh-in events. */
    addReadings: (readings: (Reading & { accountId: string })[]) => weightDays.addMany(readings),

    deleteReading: (accountId: string, id: string) => weightDays.delete(accountId, id),

    /** The database's clock now, as text: when an answer a repair writes was asked for (`replaceReadings`). */
    async clock() {
      const [row] = await db.query<{ now: string }>(Prisma.sql`SELECT statement_timestamp()::text AS now`);
      return row!.now;
    },

    /** The account's readings in [from, to) become `readings`, asked for at `askedAt`: a repair from body-metrics' answer. */
    replaceReadings: (accountId: string, from: number, to: number, readings: Reading[], askedAt: string) =>
      weightDays.replace(accountId, from, to, readings, askedAt),

    weightDaysOf: weightDays.read,

    /**
     * The days in [from, to] become what nutrition answered at `asOf` (its clock): after an item or day-mark event
     * for those days, or a repair. Each day takes an answer only if it is newer than the one the day holds, so of
     * two refreshes of one day at once (an event's and a repair's, two replicas') the newer stands whichever is
     * written last. A day the answer no longer has stays as a row marked not logged, which keeps its `asOf`; a day
     * asked for alone (an event's) gets that row even when it had none, as an older answer may still come with it.
     */
    async replaceIntakeDays(accountId: string, from: string, to: string, days: IntakeTotals[], asOf: string) {
      // One statement rather than a transaction of two: this runs after every food-item event (docs/performance.md).
      const dates = days.map((day) => day.date);
      await prisma.$executeRaw`
        WITH n AS (SELECT d.*, true AS logged
                   FROM unnest(${dates}::text[], ${days.map((day) => day.kcal)}::float8[], ${days.map((day) => day.proteinG)}::float8[],
                               ${days.map((day) => day.itemCount)}::int[], ${days.map((day) => day.counted)}::boolean[]) AS d(date, kcal, protein_g, item_count, counted)
                   UNION ALL
                   SELECT ${from}, 0, 0, 0, false, false WHERE ${from} = ${to} AND cardinality(${dates}::text[]) = 0),
        gone AS (UPDATE intake_day SET logged = false, kcal = 0, protein_g = 0, item_count = 0, counted = false,
                   as_of = ${asOf}::timestamptz, updated_at = now()
                 WHERE account_id = ${accountId}::uuid AND date BETWEEN ${from} AND ${to} AND date NOT IN (SELECT date FROM n)
                   AND as_of <= ${asOf}::timestamptz)
        INSERT INTO intake_day (account_id, date, kcal, protein_g, item_count, counted, logged, as_of, updated_at)
        SELECT ${accountId}::uuid, n.date, n.kcal, n.protein_g, n.item_count, n.counted, n.logged, ${asOf}::timestamptz, now() FROM n
        ON CONFLICT (account_id, date) DO UPDATE SET kcal = EXCLUDED.kcal, protein_g = EXCLUDED.protein_g, item_count = EXCLUDED.item_count,
          counted = EXCLUDED.counted, logged = EXCLUDED.logged, as_of = EXCLUDED.as_of, updated_at = EXCLUDED.updated_at
        WHERE intake_day.as_of <= EXCLUDED.as_of`;
    },

    /** The days logged (with items or a mark), oldest first, from `from` on. */
    intakeSince: (accountId: string, from: string) =>
      prisma.intakeDay.findMany({
        where: { accountId, date: { gte: from }, logged: true },
        orderBy: { date: "asc" },
        select: { date: true, kcal: true, proteinG: true, counted: true },
      }),

    async isBackfilled(accountId: string) {
      if (backfilled.has(accountId)) return true;
      const found = (await prisma.backfilledAccount.count({ where: { accountId } })) > 0;
      if (found) remember(accountId);
      return found;
    },

    async markBackfilled(accountId: string) {
      await prisma.backfilledAccount.createMany({ data: [{ accountId }], skipDuplicates: true });
    },

    /** After a copy; for an account that had no history to copy, only this process remembers it (no row is kept). */
    rememberBackfilled: remember,

    async unmarkBackfilled(accountId: string) {
      backfilled.delete(accountId);
      await prisma.backfilledAccount.deleteMany({ where: { accountId } });
    },

    /** Every account the read model holds anything of, for the repair pass. */
    async knownAccounts(): Promise<string[]> {
      const rows = await prisma.$queryRaw<{ account_id: string }[]>(Prisma.sql`
        SELECT account_id::text FROM weight_reading UNION SELECT account_id::text FROM intake_day UNION SELECT account_id::text FROM profile`);
      return rows.map((row) => row.account_id);
    },
  };
};

export type Store = ReturnType<typeof createStore>;
