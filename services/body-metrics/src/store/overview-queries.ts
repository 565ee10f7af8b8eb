// The statements behind the questions other services ask (the weight summary, the overview, the dashboard),
// written as parts the store reads together in one round trip (docs/decisions/0047-one-statement-per-bus-question.md).
import { MeasurementSite, type LatestMeasurement, type Targets } from "@fit/contracts";
import { Prisma } from "./generated/client.ts";
import { trendStart, WEEK_MS } from "../domain/weight-summary.ts";

export interface AggregateRow {
  newest_ts: number;
  weight_kg: number;
  body_fat_pct: number | null;
  note: string | null;
  /** The week's first day (a day number) and the sum and count of its readings after the week begins. */
  week_start: [number, number, number];
  /** The first day `days` may start at, a day number. */
  first_day: number;
  /** [newest reading's time in ms, sum, count] per day with readings from `first_day` on, oldest first. */
  days: [number, number, number][];
  /** `days` leaves out the days the replica holds (`HeldDays`): they are still what it holds. */
  reused: boolean;
  /** The roll-up's version and its last complete day (a day number); null without a range. */
  version: string | null;
  through: number | null;
  behind: boolean;
}

/** What a replica holds of an account's kept days, as the statement is told it (held-days.ts). */
export interface HeldDaysKey {
  version: string;
  /** The roll-up's last complete day and the first day held, as day numbers. */
  through: number;
  from: number;
}

/**
 * What the weight summary needs, in one statement: the days the account's roll-up holds complete
 * (`weight_day` within `weight_roll_up`) read as they are, the others (the last days, and any before the
 * range) summed from their readings, so for a dashboard of today it reads at most 90 stored days and the
 * readings of the last few, whatever their number (docs/decisions/0043-weight-day-roll-up.md). When the
 * replica holds the account's kept days and the roll-up's version and range say they have not changed, it
 * reads only the days after the range (docs/decisions/0053-kept-days-held-by-version.md). The days come
 * as one JSON array: the driver parses 90 rows field by field at several times the cost. `dayEnd` is the end
 * of a UTC day; `behind` says the roll-up's range has fallen behind it.
 */
export const weightAggregatesQuery = (accountId: string, dayEnd: number, held: HeldDaysKey | undefined) => {
  const account = Prisma.sql`${accountId}::uuid`;
  // Instants as epoch seconds: a JavaScript Date cannot spell the years 0 and 10 000 that 0001-01-01 and
  // 9999-12-31 reach, PostgreSQL can.
  const end = Prisma.sql`to_timestamp(${dayEnd / 1000}::float8)`;
  const endDay = Prisma.sql`(${end} AT TIME ZONE 'UTC')::date`;
  const trendStartDay = Prisma.sql`(to_timestamp(${trendStart(dayEnd) / 1000}::float8) AT TIME ZONE 'UTC')::date`;
  const startOf = (day: Prisma.Sql) => Prisma.sql`(${day})::timestamp AT TIME ZONE 'UTC'`;
  const dayNumber = (day: Prisma.Sql) => Prisma.sql`(${day} - DATE '1970-01-01')`;
  return Prisma.sql`
    WITH rolled AS (
      SELECT coalesce(max(since), 'infinity') AS since, coalesce(max(through), 'infinity') AS through, max(version) AS version
      FROM weight_roll_up WHERE account_id = ${account}
    ), newest AS (
      SELECT ts, weight_kg, body_fat_pct, note, ts - make_interval(secs => ${WEEK_MS / 1000}) AS week_start
      FROM weight_reading WHERE account_id = ${account} AND ts < ${end}
      ORDER BY ts DESC, id DESC LIMIT 1
    ), span AS (
      -- A CASE, not an AND: PostgreSQL may evaluate an AND's terms in any order, and an infinite day has no number.
      SELECT s.*, coalesce(CASE WHEN s.through <> 'infinity' THEN s.version = ${held?.version ?? null}::bigint
               AND ${dayNumber(Prisma.sql`s.through`)} = ${held?.through ?? null}::int
               AND ${dayNumber(Prisma.sql`s.first_day`)} >= ${held?.from ?? null}::int END, false) AS reused
      FROM (
        SELECT n.week_start, (n.week_start AT TIME ZONE 'UTC')::date AS week_first_day,
               least(${trendStartDay}, (n.week_start AT TIME ZONE 'UTC')::date + 1) AS first_day, r.since, r.through, r.version
        FROM newest n, rolled r
      ) s
    ), daily AS (
      SELECT d.day, d.last_ts, d.sum_kg, d.count FROM weight_day d, span s
      WHERE NOT s.reused AND d.account_id = ${account} AND d.day >= greatest(s.first_day, s.since) AND d.day <= least(${endDay} - 1, s.through)
      UNION ALL
      SELECT (r.ts AT TIME ZONE 'UTC')::date, max(r.ts), sum(r.weight_kg), count(*)::int FROM weight_reading r, span s
      WHERE NOT s.reused AND r.account_id = ${account} AND r.ts >= ${startOf(Prisma.sql`s.first_day`)}
        AND r.ts < ${startOf(Prisma.sql`least(s.since, ${endDay})`)}
      GROUP BY 1
      UNION ALL
      SELECT (r.ts AT TIME ZONE 'UTC')::date, max(r.ts), sum(r.weight_kg), count(*)::int FROM weight_reading r, span s
      WHERE r.account_id = ${account} AND r.ts >= ${startOf(Prisma.sql`greatest(s.through + 1, s.first_day)`)} AND r.ts < ${end}
      GROUP BY 1
    )
    SELECT date_part('epoch', n.ts) * 1000 AS newest_ts, n.weight_kg, n.body_fat_pct, n.note,
           json_build_array(${dayNumber(Prisma.sql`s.week_first_day`)}, f.sum_kg, f.count) AS week_start,
           ${dayNumber(Prisma.sql`s.first_day`)} AS first_day,
           (SELECT coalesce(json_agg(json_build_array(date_part('epoch', d.last_ts) * 1000, d.sum_kg, d.count) ORDER BY d.day), '[]')
            FROM daily d) AS days,
           s.reused, s.version::text AS version,
           CASE WHEN s.through <> 'infinity' THEN ${dayNumber(Prisma.sql`s.through`)} END AS through,
           (s.through = 'infinity' OR s.through < weight_day_kept_through() - 1) AS behind
    FROM newest n CROSS JOIN span s CROSS JOIN LATERAL (
      SELECT coalesce(sum(r.weight_kg), 0) AS sum_kg, count(*)::int AS count FROM weight_reading r
      WHERE r.account_id = ${account} AND r.ts > s.week_start AND r.ts < ${startOf(Prisma.sql`s.week_first_day + 1`)}
    ) f`;
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
