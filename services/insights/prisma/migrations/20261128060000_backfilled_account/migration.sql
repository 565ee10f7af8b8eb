-- CreateTable
CREATE TABLE "backfilled_account" (
    "account_id" UUID NOT NULL,
    "backfilled_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "backfilled_account_pkey" PRIMARY KEY ("account_id")
);
