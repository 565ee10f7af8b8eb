-- CreateTable
CREATE TABLE "weight_reading" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "ts" TIMESTAMPTZ(3) NOT NULL,
    "weight_kg" DOUBLE PRECISION NOT NULL,
    "body_fat_pct" DOUBLE PRECISION,
    "note" TEXT,
    "source" TEXT NOT NULL,
    "external_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "weight_reading_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "measurement" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "site" TEXT NOT NULL,
    "value_cm" DOUBLE PRECISION NOT NULL,
    "ts" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "measurement_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "targets" (
    "id" SERIAL NOT NULL,
    "account_id" UUID NOT NULL,
    "goal_weight_kg" DOUBLE PRECISION,
    "start_weight_kg" DOUBLE PRECISION,
    "target_date" TIMESTAMPTZ(3),
    "start_date" TIMESTAMPTZ(3),
    "daily_kcal_target" DOUBLE PRECISION,
    "protein_target_g" DOUBLE PRECISION,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "targets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "outbox_event" (
    "id" UUID NOT NULL,
    "subject" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sent_at" TIMESTAMP(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "outbox_event_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "weight_reading_account_id_ts_id_idx" ON "weight_reading"("account_id", "ts" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "weight_reading_account_id_external_id_key" ON "weight_reading"("account_id", "external_id");

-- CreateIndex
CREATE INDEX "measurement_account_id_ts_id_idx" ON "measurement"("account_id", "ts" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "measurement_account_id_site_ts_id_idx" ON "measurement"("account_id", "site", "ts" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "targets_account_id_key" ON "targets"("account_id");

-- CreateIndex
CREATE INDEX "outbox_event_sent_at_created_at_idx" ON "outbox_event"("sent_at", "created_at");
