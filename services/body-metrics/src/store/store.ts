import { bodyMetricsEvents, MeasurementSite, outboxRow } from "@fit/contracts";
import { createOutboxSource, ping, type Database } from "@fit/db";
import { keysetWhere, newestFirst, type RangePage } from "@fit/service-kit";
import { PrismaClient } from "./generated/client.ts";
import type { TargetValues } from "../domain/targets.ts";
import { accountData } from "./account-data.ts";
import { measurementView, readingView, targetsView } from "./views.ts";

export interface NewReading {
  id: string;
  accountId: string;
  ts: number;
  weightKg: number;
  bodyFatPct: number | null;
  note: string | null;
  source: "manual" | "scale";
}

export interface NewMeasurement {
  id: string;
  accountId: string;
  site: string;
  valueCm: number;
  ts: number;
}

const orNull = (ms: number | null) => (ms === null ? null : new Date(ms));

/** The only place that talks to the database. Every query is scoped by account. */
export const createStore = (db: Database) => {
  const prisma = new PrismaClient({ adapter: db.adapter });

  return {
    outbox: createOutboxSource(prisma),
    ping: () => ping(prisma),
    close: () => prisma.$disconnect(),
    accountData: accountData(prisma),

    async addReading(reading: NewReading) {
      await prisma.$transaction([
        prisma.weightReading.create({ data: { ...reading, ts: new Date(reading.ts) } }),
        prisma.outboxEvent.create({
          data: outboxRow(bodyMetricsEvents.weightLogged, {
            accountId: reading.accountId, readingId: reading.id, ts: reading.ts, weightKg: reading.weightKg,
          }),
        }),
      ]);
    },

    /**
     * Stores a scale's reading unless the account already has one under `externalId` (the unique key on
     * (account_id, external_id)); its event only with a new row. False for a repeat.
     */
    async ingestReading(reading: NewReading & { externalId: string }): Promise<boolean> {
      return prisma.$transaction(async (tx) => {
        const { count } = await tx.weightReading.createMany({ data: [{ ...reading, ts: new Date(reading.ts) }], skipDuplicates: true });
        if (count === 0) return false;
        await tx.outboxEvent.create({
          data: outboxRow(bodyMetricsEvents.weightLogged, {
            accountId: reading.accountId, readingId: reading.id, ts: reading.ts, weightKg: reading.weightKg,
          }),
        });
        return true;
      });
    },

    async setReadingNote(accountId: string, id: string, note: string | null): Promise<boolean> {
      const { count } = await prisma.weightReading.updateMany({ where: { id, accountId }, data: { note } });
      return count > 0;
    },

    async deleteReading(accountId: string, id: string): Promise<boolean> {
      const { count } = await prisma.weightReading.deleteMany({ where: { id, accountId } });
      return count > 0;
    },

    async listReadings(accountId: string, range: RangePage) {
      const rows = await prisma.weightReading.findMany({
        where: { accountId, AND: keysetWhere("ts", range) },
        orderBy: newestFirst("ts"),
        take: range.limit + 1,
      });
      return rows.map(readingView);
    },

    /** The newest reading before `end`, and every reading from `start` to `end`: what a summary needs. */
    async newestReadingBefore(accountId: string, end: number) {
      const row = await prisma.weightReading.findFirst({
        where: { accountId, ts: { lt: new Date(end) } },
        orderBy: newestFirst("ts"),
      });
      return row ? readingView(row) : null;
    },

    async readingsBetween(accountId: string, start: number, end: number) {
      const rows = await prisma.weightReading.findMany({
        where: { accountId, ts: { gte: new Date(start), lt: new Date(end) } },
        orderBy: newestFirst("ts"),
      });
      return rows.map(readingView);
    },

    async addMeasurement(m: NewMeasurement) {
      await prisma.measurement.create({ data: { ...m, ts: new Date(m.ts) } });
    },

    async deleteMeasurement(accountId: string, id: string): Promise<boolean> {
      const { count } = await prisma.measurement.deleteMany({ where: { id, accountId } });
      return count > 0;
    },

    async listMeasurements(accountId: string, site: string | undefined, range: RangePage) {
      const rows = await prisma.measurement.findMany({
        where: { accountId, ...(site ? { site } : {}), AND: keysetWhere("ts", range) },
        orderBy: newestFirst("ts"),
        take: range.limit + 1,
      });
      return rows.map(measurementView);
    },

    /**
     * One row per site, its newest value: one index probe per site (LATERAL … LIMIT 1), so the cost stays the
     * same however long the history grows (DISTINCT ON would walk every measurement of the account).
     */
    async latestMeasurements(accountId: string) {
      const rows = await prisma.$queryRaw<{ site: string; value_cm: number; ts: Date }[]>`
        SELECT s.site, m.value_cm, m.ts
        FROM unnest(${MeasurementSite.options}::text[]) AS s(site)
        CROSS JOIN LATERAL (
          SELECT value_cm, ts FROM measurement
          WHERE account_id = ${accountId}::uuid AND site = s.site
          ORDER BY ts DESC, id DESC LIMIT 1
        ) m`;
      return rows.map((r) => ({ site: r.site as MeasurementSite, valueCm: r.value_cm, ts: r.ts.getTime() }));
    },

    async getTargets(accountId: string) {
      const row = await prisma.targets.findUnique({ where: { accountId } });
      return row ? targetsView(row) : null;
    },

    async replaceTargets(accountId: string, values: TargetValues) {
      const data = { ...values, targetDate: orNull(values.targetDate), startDate: orNull(values.startDate) };
      return prisma.$transaction(async (tx) => {
        const row = await tx.targets.upsert({ where: { accountId }, create: { accountId, ...data }, update: data });
        const targets = targetsView(row);
        await tx.outboxEvent.create({ data: outboxRow(bodyMetricsEvents.targetsUpdated, { accountId, targets }) });
        return targets;
      });
    },
  };
};

export type Store = ReturnType<typeof createStore>;
