import { MeasurementSite } from "@fit/contracts";
import type pg from "pg";

export const HISTORY = { weighIns: 5_000, weighInDays: 90, measurements: 1_000, foodItems: 10_000, foodDays: 730 } as const;

/**
 * A long history for one account, written straight into the services' tables (an API call per row would take
 * minutes), ending on `end`: 5 000 weigh-ins in 90 days (a scale that posts every half hour), 1 000
 * measurements over every site, 10 000 food items over two years, and the daily totals the projection would
 * have computed from those items.
 */
export const seedHistory = async (client: pg.Client, accountId: string, end: string) => {
  await client.query(
    `INSERT INTO body_metrics.weight_reading (id, account_id, ts, weight_kg, source)
     SELECT gen_random_uuid(), $1, ($2::date + 1)::timestamp AT TIME ZONE 'UTC' - i * ($4::int * interval '1 day' / $3::int) - interval '1 minute',
            round((80 + 3 * i / $3::numeric + random())::numeric, 1), 'manual'
     FROM generate_series(0, $3::int - 1) AS i`,
    [accountId, end, HISTORY.weighIns, HISTORY.weighInDays],
  );
  await client.query(
    `INSERT INTO body_metrics.measurement (id, account_id, site, value_cm, ts)
     SELECT gen_random_uuid(), $1, ($3::text[])[1 + i % cardinality($3::text[])], round((30 + (i % 13) * 6 + random() * 3)::numeric, 1),
            ($2::date + 1)::timestamp AT TIME ZONE 'UTC' - random() * interval '730 days'
     FROM generate_series(1, $4::int) AS i`,
    [accountId, end, MeasurementSite.options, HISTORY.measurements],
  );
  await client.query(
    `INSERT INTO nutrition.food_item (id, account_id, date, name, kcal, protein_g, carbs_g, fat_g, meal, updated_at)
     SELECT gen_random_uuid(), $1, to_char($2::date - (i % $4::int), 'YYYY-MM-DD'), 'food ' || i,
            round((50 + random() * 650)::numeric), round((random() * 45)::numeric, 1), round((random() * 80)::numeric, 1),
            round((random() * 30)::numeric, 1), (ARRAY['breakfast', 'lunch', 'dinner', 'snack'])[1 + i % 4], now()
     FROM generate_series(0, $3::int - 1) AS i`,
    [accountId, end, HISTORY.foodItems, HISTORY.foodDays],
  );
  await client.query(
    `INSERT INTO nutrition.daily_total (account_id, date, kcal, protein_g, item_count)
     SELECT account_id, date, sum(kcal), sum(protein_g), count(*) FROM nutrition.food_item WHERE account_id = $1
     GROUP BY account_id, date`,
    [accountId],
  );
  // Planner statistics as a long-lived database would have them, not the empty-table guesses.
  await client.query("ANALYZE body_metrics.weight_reading, body_metrics.measurement, nutrition.food_item, nutrition.daily_total");
};

/** A page and more of today's weigh-ins, a minute apart: what `GET /api/weight` lists after a write phase. */
export const seedRecentWeighIns = (client: pg.Client, accountId: string, count: number) =>
  client.query(
    `INSERT INTO body_metrics.weight_reading (id, account_id, ts, weight_kg, source)
     SELECT gen_random_uuid(), $1, now() - i * interval '1 minute', 80 + i / 100.0, 'manual' FROM generate_series(1, $2::int) AS i`,
    [accountId, count],
  );

/**
 * The roll-up trigger takes a transaction lock per account and day it touches (docs/decisions/0043): a statement
 * inserting more readings than PostgreSQL's lock table holds fails, so weigh-ins go in this many account-days at a time.
 */
const LOCKED_DAYS_PER_STATEMENT = 1_500;

/** What each of the many seeded accounts holds: about a month of use, as most accounts of a tracker have. */
export const ACCOUNT_SIZE = { weighIns: 30, foodItems: 60, workouts: 8, measurements: 4 } as const;

/**
 * `count` accounts of ACCOUNT_SIZE written straight into the services' tables (the weigh-ins through their
 * roll-up triggers), ending on `end`. Only the services' rows: the gateway's account tables are not read on the
 * request path (a key is looked up once and cached).
 */
export const seedAccounts = (client: pg.Client, count: number, end: string) =>
  seedEach(client, end, "SELECT gen_random_uuid() AS id, i FROM generate_series(1, $1::int) AS i", [count]);

/** ACCOUNT_SIZE for accounts that exist already (made through the API, so a benchmark holds their keys). */
export const seedOrdinary = (client: pg.Client, accountIds: string[], end: string) =>
  seedEach(client, end, "SELECT id, i::int FROM unnest($1::uuid[]) WITH ORDINALITY AS t(id, i)", [accountIds]);

/** ACCOUNT_SIZE for each account `accounts` selects (`id`, and `i` numbering them from 1). */
const seedEach = async (client: pg.Client, end: string, accounts: string, values: unknown[]) => {
  await client.query(`CREATE TEMP TABLE seeded_account AS ${accounts}`, values);
  const count = Number((await client.query<{ n: string }>("SELECT count(*) AS n FROM seeded_account")).rows[0]!.n);
  for (let from = 0; from < count; from += LOCKED_DAYS_PER_STATEMENT / ACCOUNT_SIZE.weighIns) {
    await client.query(
      `INSERT INTO body_metrics.weight_reading (id, account_id, ts, weight_kg, source)
       SELECT gen_random_uuid(), a.id, ($1::date + 1)::timestamp AT TIME ZONE 'UTC' - d * interval '1 day' - (a.i % 600) * interval '1 minute',
              round((55 + a.i % 50 + random())::numeric, 1), 'scale'
       FROM seeded_account a, generate_series(1, $2::int) AS d WHERE a.i > $3 AND a.i <= $3 + $4`,
      [end, ACCOUNT_SIZE.weighIns, from, LOCKED_DAYS_PER_STATEMENT / ACCOUNT_SIZE.weighIns],
    );
  }
  await client.query(
    `INSERT INTO body_metrics.measurement (id, account_id, site, value_cm, ts)
     SELECT gen_random_uuid(), a.id, 'waist', round((70 + a.i % 40 + random())::numeric, 1), ($1::date + 1)::timestamp AT TIME ZONE 'UTC' - d * interval '7 days'
     FROM seeded_account a, generate_series(1, $2::int) AS d`,
    [end, ACCOUNT_SIZE.measurements],
  );
  await client.query(
    `INSERT INTO nutrition.food_item (id, account_id, date, name, kcal, protein_g, carbs_g, fat_g, meal, updated_at)
     SELECT gen_random_uuid(), a.id, to_char($1::date - n / 3, 'YYYY-MM-DD'), 'food ' || n, round((150 + random() * 600)::numeric),
            round((random() * 40)::numeric, 1), round((random() * 80)::numeric, 1), round((random() * 30)::numeric, 1),
            (ARRAY['breakfast', 'lunch', 'dinner'])[1 + n % 3], now()
     FROM seeded_account a, generate_series(0, $2::int - 1) AS n`,
    [end, ACCOUNT_SIZE.foodItems],
  );
  await client.query(
    `INSERT INTO workouts.workout (id, account_id, source, activity_type, summary, description, started_at, duration_s, distance_m, energy_kcal, updated_at)
     SELECT gen_random_uuid(), a.id, 'manual', 'run', 'Run', 'a run', ($1::date)::timestamp AT TIME ZONE 'UTC' - w * interval '3 days' + interval '7 hours',
            1800 + (a.i % 30) * 60, 5000 + (a.i % 50) * 100, 300 + a.i % 200, now()
     FROM seeded_account a, generate_series(1, $2::int) AS w`,
    [end, ACCOUNT_SIZE.workouts],
  );
  await client.query(
    `INSERT INTO nutrition.daily_total (account_id, date, kcal, protein_g, item_count)
     SELECT f.account_id, f.date, sum(f.kcal), sum(f.protein_g), count(*) FROM nutrition.food_item f JOIN seeded_account a ON a.id = f.account_id
     GROUP BY f.account_id, f.date`,
  );
  // Insights' read model holds its copy of each, as it would after their events.
  await client.query(
    `INSERT INTO insights.weight_reading (id, account_id, ts, weight_kg)
     SELECT w.id, w.account_id, w.ts, w.weight_kg FROM body_metrics.weight_reading w JOIN seeded_account a ON a.id = w.account_id`,
  );
  await client.query(
    `INSERT INTO insights.intake_day (account_id, date, kcal, protein_g, item_count, counted, updated_at)
     SELECT d.account_id, d.date, d.kcal, d.protein_g, d.item_count, true, now() FROM nutrition.daily_total d JOIN seeded_account a ON a.id = d.account_id`,
  );
  await client.query("INSERT INTO insights.backfilled_account (account_id, backfilled_at) SELECT id, now() FROM seeded_account");
  await client.query("DROP TABLE seeded_account");
};

/**
 * Ten years (or `years`) of one account: a weigh-in every morning, eight food items a day with their daily
 * totals, a measurement a week and 1 500 workouts over the years (issue 39's ten-year Apple Health account).
 */
export const seedYears = async (client: pg.Client, accountId: string, end: string, years: number) => {
  const days = Math.round(years * 365.25);
  for (let from = 0; from < days; from += LOCKED_DAYS_PER_STATEMENT) {
    await client.query(
      `INSERT INTO body_metrics.weight_reading (id, account_id, ts, weight_kg, source)
       SELECT gen_random_uuid(), $1, ($2::date)::timestamp AT TIME ZONE 'UTC' - d * interval '1 day' + interval '7 hours', round((85 - 10 * d / $3::numeric + random())::numeric, 1), 'scale'
       FROM generate_series($4::int + 1, least($4::int + $5::int, $3::int)) AS d`,
      [accountId, end, days, from, LOCKED_DAYS_PER_STATEMENT],
    );
  }
  await client.query(
    `INSERT INTO body_metrics.measurement (id, account_id, site, value_cm, ts)
     SELECT gen_random_uuid(), $1, 'waist', round((90 - 8 * w / $3::numeric)::numeric, 1), ($2::date)::timestamp AT TIME ZONE 'UTC' - w * interval '7 days'
     FROM generate_series(1, $3::int / 7) AS w`,
    [accountId, end, days],
  );
  await client.query(
    `INSERT INTO nutrition.food_item (id, account_id, date, name, kcal, protein_g, carbs_g, fat_g, meal, updated_at)
     SELECT gen_random_uuid(), $1, to_char($2::date - 1 - n / 8, 'YYYY-MM-DD'), 'food ' || n, round((100 + random() * 500)::numeric),
            round((random() * 35)::numeric, 1), round((random() * 60)::numeric, 1), round((random() * 25)::numeric, 1),
            (ARRAY['breakfast', 'lunch', 'dinner', 'snack'])[1 + n % 4], now()
     FROM generate_series(0, $3::int * 8 - 1) AS n`,
    [accountId, end, days],
  );
  await client.query(
    `INSERT INTO nutrition.daily_total (account_id, date, kcal, protein_g, item_count)
     SELECT account_id, date, sum(kcal), sum(protein_g), count(*) FROM nutrition.food_item WHERE account_id = $1 GROUP BY account_id, date`,
    [accountId],
  );
  await client.query(
    `INSERT INTO workouts.workout (id, account_id, source, activity_type, summary, description, started_at, duration_s, distance_m, energy_kcal, updated_at)
     SELECT gen_random_uuid(), $1, 'phone_health', (ARRAY['run', 'ride', 'walk', 'swim'])[1 + w % 4], 'Workout', '',
            ($2::date)::timestamp AT TIME ZONE 'UTC' - (w * $3::int / 1500) * interval '1 day' + interval '18 hours', 1800 + (w % 60) * 60, 3000 + (w % 90) * 200, 200 + w % 500, now()
     FROM generate_series(1, 1500) AS w`,
    [accountId, end, days],
  );
};
