import { ping, runExclusively, type Database } from "@fit/db";
import type { Profile } from "@fit/contracts";
import { Prisma, PrismaClient } from "./generated/client.ts";
import { accountData } from "./account-data.ts";
import { profileView } from "./profile-view.ts";

export interface Reading {
  id: string;
  ts: number;
  weightKg: number;
}

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
export const createStore = (db: Database) => {
  const prisma = new PrismaClient({ adapter: db.adapter });

  return {
    ping: () => ping(prisma),
    close: () => prisma.$disconnect(),
    accountData: accountData(prisma),
    exclusively: <T>(name: string, fn: () => Promise<T>) => runExclusively(db, name, fn),

    async getProfile(accountId: string): Promise<Profile> {
      return profileView(await prisma.profile.findUnique({ where: { accountId } }));
    },

    async replaceProfile(accountId: string, profile: Profile): Promise<Profile> {
      return profileView(await prisma.profile.upsert({ where: { accountId }, create: { accountId, ...profile }, update: profile }));
    },

    async addReading(accountId: string, reading: Reading) {
      await prisma.$executeRaw`INSERT INTO weight_reading (id, account_id, ts, weight_kg)
        VALUES (${reading.id}::uuid, ${accountId}::uuid, ${new Date(reading.ts)}, ${reading.weightKg}) ON CONFLICT (id) DO NOTHING`;
    },

    async deleteReading(accountId: string, id: string) {
      await prisma.weightReading.deleteMany({ where: { accountId, id } });
    },

    /** The account's readings in [from, to) become exactly `readings`: a repair from body-metrics' answer. */
    replaceReadings: (accountId: string, from: number, to: number, readings: Reading[]) =>
      prisma.$transaction([
        prisma.weightReading.deleteMany({ where: { accountId, ts: { gte: new Date(from), lt: new Date(to) } } }),
        prisma.weightReading.createMany({
          data: readings.map(({ id, ts, weightKg }) => ({ id, accountId, ts: new Date(ts), weightKg })),
          skipDuplicates: true,
        }),
      ]),

    /** Oldest first, from `from` on. */
    async readingsSince(accountId: string, from: number): Promise<Reading[]> {
      const rows = await prisma.weightReading.findMany({ where: { accountId, ts: { gte: new Date(from) } }, orderBy: { ts: "asc" } });
      return rows.map(({ id, ts, weightKg }) => ({ id, ts: ts.getTime(), weightKg }));
    },

    /**
     * The days in [from, to] become exactly `days` (a day without items or a mark is no row): after an item
     * or day-mark event for those days, or a repair.
     */
    replaceIntakeDays: (accountId: string, from: string, to: string, days: IntakeTotals[]) =>
      prisma.$transaction([
        prisma.intakeDay.deleteMany({ where: { accountId, date: { gte: from, lte: to } } }),
        // skipDuplicates: two refreshes of one day at once (an event's and a first read's back-fill) both insert it.
        prisma.intakeDay.createMany({ data: days.map((day) => ({ accountId, ...day })), skipDuplicates: true }),
      ]),

    /** Oldest first, from `from` on. */
    intakeSince: (accountId: string, from: string) =>
      prisma.intakeDay.findMany({ where: { accountId, date: { gte: from } }, orderBy: { date: "asc" }, select: { date: true, kcal: true, proteinG: true, counted: true } }),

    isBackfilled: async (accountId: string) => (await prisma.backfilledAccount.count({ where: { accountId } })) > 0,

    async markBackfilled(accountId: string) {
      await prisma.backfilledAccount.createMany({ data: [{ accountId }], skipDuplicates: true });
    },

    async unmarkBackfilled(accountId: string) {
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
