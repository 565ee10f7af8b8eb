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
