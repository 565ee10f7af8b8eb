-- CreateTable
CREATE TABLE "workout" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "source" TEXT NOT NULL,
    "external_id" TEXT,
    "activity_type" TEXT NOT NULL,
    "summary" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "duration_s" INTEGER NOT NULL,
    "moving_duration_s" INTEGER,
    "distance_m" DOUBLE PRECISION,
    "elevation_gain_m" DOUBLE PRECISION,
    "energy_kcal" DOUBLE PRECISION,
    "energy_low" DOUBLE PRECISION,
    "energy_high" DOUBLE PRECISION,
    "energy_source" TEXT,
    "avg_hr" DOUBLE PRECISION,
    "max_hr" DOUBLE PRECISION,
    "avg_power_w" DOUBLE PRECISION,
    "avg_cadence" DOUBLE PRECISION,
    "exercises" JSONB NOT NULL DEFAULT '[]',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "workout_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "outbox_event" (
    "id" UUID NOT NULL,
    "subject" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sent_at" TIMESTAMPTZ(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "outbox_event_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "workout_account_id_started_at_id_idx" ON "workout"("account_id", "started_at" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "workout_account_id_source_external_id_key" ON "workout"("account_id", "source", "external_id");

-- CreateIndex
CREATE INDEX "outbox_event_sent_at_created_at_idx" ON "outbox_event"("sent_at", "created_at");
