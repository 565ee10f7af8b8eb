-- CreateTable
CREATE TABLE "day_mark" (
    "account_id" UUID NOT NULL,
    "date" VARCHAR(10) NOT NULL,
    "mark" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "day_mark_pkey" PRIMARY KEY ("account_id","date")
);
