-- CreateTable
CREATE TABLE "profile" (
    "account_id" UUID NOT NULL,
    "height_cm" DOUBLE PRECISION,
    "birth_year" INTEGER,
    "sex" TEXT,
    "activity_level" TEXT,
    "units" TEXT NOT NULL,
    "time_zone" TEXT NOT NULL,
    "first_day_of_week" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "profile_pkey" PRIMARY KEY ("account_id")
);

-- CreateTable
CREATE TABLE "weight_reading" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "ts" TIMESTAMPTZ(3) NOT NULL,
    "weight_kg" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "weight_reading_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "intake_day" (
    "account_id" UUID NOT NULL,
    "date" TEXT NOT NULL,
    "kcal" DOUBLE PRECISION NOT NULL,
    "protein_g" DOUBLE PRECISION NOT NULL,
    "item_count" INTEGER NOT NULL,
    "counted" BOOLEAN NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "intake_day_pkey" PRIMARY KEY ("account_id","date")
);

-- CreateIndex
CREATE INDEX "weight_reading_account_id_ts_idx" ON "weight_reading"("account_id", "ts");
