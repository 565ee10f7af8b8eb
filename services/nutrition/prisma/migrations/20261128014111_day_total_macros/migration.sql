-- AlterTable
ALTER TABLE "daily_total" ADD COLUMN     "carbs_g" DOUBLE PRECISION,
ADD COLUMN     "fat_g" DOUBLE PRECISION,
ADD COLUMN     "fiber_g" DOUBLE PRECISION,
ADD COLUMN     "macros_unknown_items" INTEGER NOT NULL DEFAULT 0;

-- Stored totals get their macros from their items now: the projection recomputes a day only when it changes.
UPDATE "daily_total" t SET "fat_g" = i.fat_g, "carbs_g" = i.carbs_g, "fiber_g" = i.fiber_g, "macros_unknown_items" = i.unknown
FROM (
  SELECT account_id, date, sum(fat_g) AS fat_g, sum(carbs_g) AS carbs_g, sum(fiber_g) AS fiber_g,
    count(*) FILTER (WHERE fat_g IS NULL OR carbs_g IS NULL OR fiber_g IS NULL)::int AS unknown
  FROM "food_item" GROUP BY account_id, date
) i
WHERE t.account_id = i.account_id AND t.date = i.date;
