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
  /** [newest reading's time in ms, sum, count] per day, oldest first. */
  days: [number, number, number][];
  behind: boolean;
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
     * What the weight summary needs, in one statement: the days the account's roll-up holds complete
     * (`weight_day` within `weight_roll_up`) read as they are, the others (the last days, and any before the
     * range) summed from their readings, so for a dashboard of today it reads at most 90 stored days and the
     * readings of the last few, whatever their number (docs/decisions/0043-weight-day-roll-up.md). The week is
     * the whole days after the one it starts in plus that first day's readings after its start. The days come
     * as one JSON array: the driver parses 90 rows field by field at several times the cost. When the range has
     * fallen behind, rolls it forward for the next read. `dayEnd` is the end of a UTC day.
     */
    async weightAggregates(accountId: string, dayEnd: number): Promise<WeightAggregates | null> {
      const account = Prisma.sql`${accountId}::uuid`;
      // Instants as epoch seconds: a JavaScript Date cannot spell the years 0 and 10 000 that 0001-01-01 and
      // 9999-12-31 reach, PostgreSQL can.
      const end = Prisma.sql`to_timestamp(${dayEnd / 1000}::float8)`;
      const endDay = Prisma.sql`(${end} AT TIME ZONE 'UTC')::date`;
      const trendStartDay = Prisma.sql`(to_timestamp(${trendStart(dayEnd) / 1000}::float8) AT TIME ZONE 'UTC')::date`;
      const startOf = (day: Prisma.Sql) => Prisma.sql`(${day})::timestamp AT TIME ZONE 'UTC'`;
      const [row] = await db.query<AggregateRow>(Prisma.sql`
        WITH rolled AS (
          SELECT coalesce(max(since), 'infinity') AS since, coalesce(max(through), 'infinity') AS through
          FROM weight_roll_up WHERE account_id = ${account}
        ), newest AS (
          SELECT ts, weight_kg, body_fat_pct, note, ts - make_interval(secs => ${WEEK_MS / 1000}) AS week_start
          FROM weight_reading WHERE account_id = ${account} AND ts < ${end}
          ORDER BY ts DESC, id DESC LIMIT 1
        ), span AS (
          SELECT n.week_start, (n.week_start AT TIME ZONE 'UTC')::date AS week_first_day,
                 least(${trendStartDay}, (n.week_start AT TIME ZONE 'UTC')::date + 1) AS first_day, r.since, r.through
          FROM newest n, rolled r
        ), daily AS (
          SELECT d.day, d.last_ts, d.sum_kg, d.count FROM weight_day d, span s
          WHERE d.account_id = ${account} AND d.day >= greatest(s.first_day, s.since) AND d.day <= least(${endDay} - 1, s.through)
          UNION ALL
          SELECT (r.ts AT TIME ZONE 'UTC')::date, max(r.ts), sum(r.weight_kg), count(*)::int FROM weight_reading r, span s
          WHERE r.account_id = ${account} AND r.ts >= ${startOf(Prisma.sql`s.first_day`)} AND r.ts < ${startOf(Prisma.sql`least(s.since, ${endDay})`)}
          GROUP BY 1
          UNION ALL
          SELECT (r.ts AT TIME ZONE 'UTC')::date, max(r.ts), sum(r.weight_kg), count(*)::int FROM weight_reading r, span s
          WHERE r.account_id = ${account} AND r.ts >= ${startOf(Prisma.sql`greatest(s.through + 1, s.first_day)`)} AND r.ts < ${end}
          GROUP BY 1
        ), week AS (
          SELECT (SELECT coalesce(sum(d.sum_kg), 0) FROM daily d WHERE d.day > s.week_first_day) + f.sum_kg AS sum,
                 (SELECT coalesce(sum(d.count), 0)::int FROM daily d WHERE d.day > s.week_first_day) + f.count AS count
          FROM span s CROSS JOIN LATERAL (
            SELECT coalesce(sum(r.weight_kg), 0) AS sum_kg, count(*)::int AS count FROM weight_reading r
            WHERE r.account_id = ${account} AND r.ts > s.week_start AND r.ts < ${startOf(Prisma.sql`s.week_first_day + 1`)}
          ) f
        )
        SELECT date_part('epoch', n.ts) * 1000 AS newest_ts, n.weight_kg, n.body_fat_pct, n.note,
               w.sum AS week_sum, w.count AS week_count,
               (SELECT coalesce(json_agg(json_build_array(date_part('epoch', d.last_ts) * 1000, d.sum_kg, d.count) ORDER BY d.day), '[]')
                FROM daily d WHERE d.day >= ${trendStartDay}) AS days,
               (SELECT through = 'infinity' OR through < weight_day_kept_through() - 1 FROM rolled) AS behind
        FROM newest n CROSS JOIN week w`);
      if (!row) return null;
      if (row.behind) await db.query(Prisma.sql`SELECT weight_day_roll_forward(${account})`);
      return {
        newest: { ts: row.newest_ts, weightKg: row.weight_kg, bodyFatPct: row.body_fat_pct, note: row.note },
        week: { sum: row.week_sum, count: row.week_count },
        days: row.days.map(([ts, sum, count]) => ({ ts, sum, count })),
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
      // The time as epoch milliseconds: the driver parses a timestamp's text into a Date at ~8 times a number's cost.
      const rows = await db.query<{ site: string; value_cm: number; ts: number }>(Prisma.sql`
        SELECT s.site, m.value_cm, date_part('epoch', m.ts) * 1000 AS ts
        FROM unnest(${MeasurementSite.options}::text[]) AS s(site)
        CROSS JOIN LATERAL (
          SELECT value_cm, ts FROM measurement
          WHERE account_id = ${accountId}::uuid AND site = s.site
          ORDER BY ts DESC, id DESC LIMIT 1
        ) m`);
      return rows.map((r) => ({ site: r.site as MeasurementSite, valueCm: r.value_cm, ts: r.ts }));
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
