// The statements behind the questions other services ask (the weight summary, the overview, the dashboard),
// written as parts the store reads together in one round trip (docs/decisions/0047-one-statement-per-bus-question.md).
import { MeasurementSite, type LatestMeasurement, type Targets } from "@fit/contracts";
import { Prisma } from "./generated/client.ts";
import { trendStart, WEEK_MS } from "../domain/weight-summary.ts";

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

/**
 * What the weight summary needs, in one statement: the days the account's roll-up holds complete
 * (`weight_day` within `weight_roll_up`) read as they are, the others (the last days, and any before the
 * range) summed from their readings, so for a dashboard of today it reads at most 90 stored days and the
 * readings of the last few, whatever their number (docs/decisions/0043-weight-day-roll-up.md). The week is
 * the whole days after the one it starts in plus that first day's readings after its start. The days come
 * as one JSON array: the driver parses 90 rows field by field at several times the cost. `dayEnd` is the end
 * of a UTC day; `behind` says the roll-up's range has fallen behind it.
 */
export const weightAggregatesQuery = (accountId: string, dayEnd: number) => {
  const account = Prisma.sql`${accountId}::uuid`;
  // Instants as epoch seconds: a JavaScript Date cannot spell the years 0 and 10 000 that 0001-01-01 and
  // 9999-12-31 reach, PostgreSQL can.
  const end = Prisma.sql`to_timestamp(${dayEnd / 1000}::float8)`;
  const endDay = Prisma.sql`(${end} AT TIME ZONE 'UTC')::date`;
  const trendStartDay = Prisma.sql`(to_timestamp(${trendStart(dayEnd) / 1000}::float8) AT TIME ZONE 'UTC')::date`;
  const startOf = (day: Prisma.Sql) => Prisma.sql`(${day})::timestamp AT TIME ZONE 'UTC'`;
  return Prisma.sql`
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
    FROM newest n CROSS JOIN week w`;
};

export const targetsQuery = (accountId: string) => Prisma.sql`
  SELECT id, goal_weight_kg AS "goalWeightKg", start_weight_kg AS "startWeightKg",
         date_part('epoch', target_date) * 1000 AS "targetDate", date_part('epoch', start_date) * 1000 AS "startDate",
         daily_kcal_target AS "dailyKcalTarget", protein_target_g AS "proteinTargetG"
  FROM targets WHERE account_id = ${accountId}::uuid`;

/**
 * One row per site, its newest value: one index probe per site (LATERAL … LIMIT 1), so the cost stays the same
 * however long the history grows (DISTINCT ON would walk every measurement of the account). The time as epoch
 * milliseconds: the driver parses a timestamp's text into a Date at ~8 times a number's cost.
 */
export const latestMeasurementsQuery = (accountId: string) => Prisma.sql`
  SELECT s.site, m.value_cm AS "valueCm", date_part('epoch', m.ts) * 1000 AS ts
  FROM unnest(${MeasurementSite.options}::text[]) AS s(site)
  CROSS JOIN LATERAL (
    SELECT value_cm, ts FROM measurement
    WHERE account_id = ${accountId}::uuid AND site = s.site
    ORDER BY ts DESC, id DESC LIMIT 1
  ) m`;

/** What `readTogether` reads: each part one JSON column, a row (null when there is none) or a list. */
export interface TogetherRow {
  weight: AggregateRow | null;
  targets?: Targets | null;
  latest?: LatestMeasurement[];
}
