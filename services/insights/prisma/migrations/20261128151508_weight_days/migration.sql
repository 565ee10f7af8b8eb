-- AlterTable
ALTER TABLE "weight_reading" ADD COLUMN     "day" DATE;

-- CreateTable
CREATE TABLE "weight_day" (
    "account_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "sum_kg" DOUBLE PRECISION NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "weight_day_pkey" PRIMARY KEY ("account_id","day")
);

-- CreateTable
CREATE TABLE "weight_day_zone" (
    "account_id" UUID NOT NULL,
    "time_zone" TEXT NOT NULL,

    CONSTRAINT "weight_day_zone_pkey" PRIMARY KEY ("account_id")
);

-- Readings stored before days were kept: the empty zone has each account's days rebuilt, in JavaScript's zone
-- rules, at its next write or read (docs/decisions/0087-insights-weight-days.md).
INSERT INTO "weight_day_zone" ("account_id", "time_zone") SELECT DISTINCT "account_id", '' FROM "weight_reading";
