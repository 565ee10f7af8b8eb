import { bodyMetricsEvents, MeasurementSite, outboxRow } from "@fit/contracts";
import { changeWithEvent, createOutboxSource, newestFirstPage, ping, type Database, type RangePage } from "@fit/db";
import { Prisma, PrismaClient } from "./generated/client.ts";
import type { TargetValues } from "../domain/targets.ts";
import { trendStart, WEEK_MS, type WeightAggregates } from "../domain/weight-summary.ts";
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

interface AggregateRow {
  newest_ts: number;
  weight_kg: number;
  body_fat_pct: number | null;
  note: string | null;
  week_sum: number;
  week_count: number;
  day_ts: number | null;
  day_sum: number | null;
  day_count: number | null;
}

const orNull = (ms: number | null) => (ms === null ? null : new Date(ms));

// Columns under the names the views read, as the Prisma models name them.
const readingColumns = Prisma.sql`id, ts, weight_kg AS "weightKg", body_fat_pct AS "bodyFatPct", note, source, created_at AS "createdAt"`;
const measurementColumns = Prisma.sql`id, site, value_cm AS "valueCm", ts, created_at AS "createdAt"`;

/**
 * The reading and its event in one statement (docs/decisions/0028-raw-sql-on-hot-paths.md). `onConflict` lets a
 * scale's repeat write nothing, and then no event either.
 */
const insertReading = (reading: NewReading & { externalId?: string }, onConflict = Prisma.empty) =>
  changeWithEvent(
    Prisma.sql`INSERT INTO weight_reading (id, account_id, ts, weight_kg, body_fat_pct, note, source, external_id)
      VALUES (${reading.id}::uuid, ${reading.accountId}::uuid, ${new Date(reading.ts)}, ${reading.weightKg}, ${reading.bodyFatPct},
              ${reading.note}, ${reading.source}, ${reading.externalId ?? null})
      ${onConflict} RETURNING id`,
    outboxRow(bodyMetricsEvents.weightLogged, {
      accountId: reading.accountId, readingId: reading.id, ts: reading.ts, weightKg: reading.weightKg,
    }),
  );

/**
 * The only place that talks to the database. Every query is scoped by account. The requests a client makes
 * most (weigh-ins written and listed, the dashboard's summary) run on the driver (`db.query`), the rest through
 * the Prisma client: docs/decisions/0036-hot-paths-on-the-driver.md.
 */
export const createStore = (db: Database) => {
  const prisma = new PrismaClient({ adapter: db.adapter });

  return {
    outbox: createOutboxSource(db),
    ping: () => ping(prisma),
    close: () => prisma.$disconnect(),
    accountData: accountData(prisma),

    async addReading(reading: NewReading) {
      await db.query(insertReading(reading));
    },

    /**
     * Stores a scale's reading unless the account already has one under `externalId` (the unique key on
     * (account_id, external_id)); its event only with a new row. False for a repeat.
     */
    async ingestReading(reading: NewReading & { externalId: string }): Promise<boolean> {
      const [row] = await db.query<{ changed: number }>(insertReading(reading, Prisma.sql`ON CONFLICT DO NOTHING`));
      return (row?.changed ?? 0) > 0;
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
      const rows = await db.query<Parameters<typeof readingView>[0]>(
        Prisma.sql`SELECT ${readingColumns} FROM weight_reading WHERE account_id = ${accountId}::uuid ${newestFirstPage("ts", range)}`,
      );
      return rows.map(readingView);
    },

    /**
     * What the weight summary needs, aggregated in SQL: per UTC day one row, each repeating the newest reading
     * and the 7-day sum, so the rows are at most 90 whatever the number of readings; null without any reading.
     * `date_part`, not `extract`: since PostgreSQL 14 `extract` returns numeric, and numeric arithmetic on every
     * reading was 40 % of the query for 5 000 of them (docs/decisions/0036-hot-paths-on-the-driver.md).
     */
    async weightAggregates(accountId: string, dayEnd: number): Promise<WeightAggregates | null> {
      const end = new Date(dayEnd);
      const rows = await db.query<AggregateRow>(Prisma.sql`
        WITH newest AS (
          SELECT ts, weight_kg, body_fat_pct, note FROM weight_reading
          WHERE account_id = ${accountId}::uuid AND ts < ${end}
          ORDER BY ts DESC, id DESC LIMIT 1
        ), week AS (
          SELECT sum(r.weight_kg) AS sum, count(*)::int AS count FROM weight_reading r, newest n
          WHERE r.account_id = ${accountId}::uuid AND r.ts > n.ts - make_interval(secs => ${WEEK_MS / 1000}) AND r.ts < ${end}
        ), days AS (
          SELECT floor(date_part('epoch', ts) / 86400) AS day, max(ts) AS ts, sum(weight_kg) AS sum, count(*)::int AS count
          FROM weight_reading
          WHERE account_id = ${accountId}::uuid AND ts >= ${new Date(trendStart(dayEnd))} AND ts < ${end}
          GROUP BY 1
        )
        SELECT date_part('epoch', n.ts) * 1000 AS newest_ts, n.weight_kg, n.body_fat_pct, n.note,
               w.sum AS week_sum, w.count AS week_count,
               date_part('epoch', d.ts) * 1000 AS day_ts, d.sum AS day_sum, d.count AS day_count
        FROM newest n CROSS JOIN week w LEFT JOIN days d ON true
        ORDER BY d.day`);
      const [first] = rows;
      if (!first) return null;
      return {
        newest: { ts: first.newest_ts, weightKg: first.weight_kg, bodyFatPct: first.body_fat_pct, note: first.note },
        week: { sum: first.week_sum, count: first.week_count },
        days: rows.flatMap((r) => (r.day_ts === null ? [] : [{ ts: r.day_ts, sum: r.day_sum!, count: r.day_count! }])),
      };
    },

    async addMeasurement(m: NewMeasurement) {
      await prisma.measurement.create({ data: { ...m, ts: new Date(m.ts) } });
    },

    async deleteMeasurement(accountId: string, id: string): Promise<boolean> {
      const { count } = await prisma.measurement.deleteMany({ where: { id, accountId } });
      return count > 0;
    },

    async listMeasurements(accountId: string, site: string | undefined, range: RangePage) {
      const rows = await db.query<Parameters<typeof measurementView>[0]>(
        Prisma.sql`SELECT ${measurementColumns} FROM measurement
          WHERE account_id = ${accountId}::uuid ${site ? Prisma.sql`AND site = ${site}` : Prisma.empty} ${newestFirstPage("ts", range)}`,
      );
      return rows.map(measurementView);
    },

    /**
     * One row per site, its newest value: one index probe per site (LATERAL … LIMIT 1), so the cost stays the
     * same however long the history grows (DISTINCT ON would walk every measurement of the account).
     */
    async latestMeasurements(accountId: string) {
      const rows = await db.query<{ site: string; value_cm: number; ts: Date }>(Prisma.sql`
        SELECT s.site, m.value_cm, m.ts
        FROM unnest(${MeasurementSite.options}::text[]) AS s(site)
        CROSS JOIN LATERAL (
          SELECT value_cm, ts FROM measurement
          WHERE account_id = ${accountId}::uuid AND site = s.site
          ORDER BY ts DESC, id DESC LIMIT 1
        ) m`);
      return rows.map((r) => ({ site: r.site as MeasurementSite, valueCm: r.value_cm, ts: r.ts.getTime() }));
    },

    async getTargets(accountId: string) {
      const [row] = await db.query<Parameters<typeof targetsView>[0]>(Prisma.sql`
        SELECT id, goal_weight_kg AS "goalWeightKg", start_weight_kg AS "startWeightKg", target_date AS "targetDate",
               start_date AS "startDate", daily_kcal_target AS "dailyKcalTarget", protein_target_g AS "proteinTargetG"
        FROM targets WHERE account_id = ${accountId}::uuid`);
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
