-- CreateTable
CREATE TABLE "food_item" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "date" VARCHAR(10) NOT NULL,
    "name" TEXT NOT NULL,
    "kcal" DOUBLE PRECISION NOT NULL,
    "protein_g" DOUBLE PRECISION NOT NULL,
    "carbs_g" DOUBLE PRECISION,
    "fat_g" DOUBLE PRECISION,
    "quantity" DOUBLE PRECISION,
    "unit" TEXT,
    "meal" TEXT,
    "note" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "food_item_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "daily_total" (
    "account_id" UUID NOT NULL,
    "date" VARCHAR(10) NOT NULL,
    "kcal" DOUBLE PRECISION NOT NULL,
    "protein_g" DOUBLE PRECISION NOT NULL,
    "item_count" INTEGER NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "daily_total_pkey" PRIMARY KEY ("account_id","date")
);

-- CreateTable
CREATE TABLE "pending_day" (
    "account_id" UUID NOT NULL,
    "date" VARCHAR(10) NOT NULL,
    "event_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "pending_day_pkey" PRIMARY KEY ("account_id","date")
);

-- CreateTable
CREATE TABLE "account_targets" (
    "account_id" UUID NOT NULL,
    "daily_kcal_target" DOUBLE PRECISION,
    "protein_target_g" DOUBLE PRECISION,
    "as_of" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "account_targets_pkey" PRIMARY KEY ("account_id")
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
CREATE INDEX "food_item_account_id_date_idx" ON "food_item"("account_id", "date");

-- CreateIndex
CREATE INDEX "daily_total_account_id_date_idx" ON "daily_total"("account_id", "date" DESC);

-- CreateIndex
CREATE INDEX "outbox_event_sent_at_created_at_idx" ON "outbox_event"("sent_at", "created_at");
