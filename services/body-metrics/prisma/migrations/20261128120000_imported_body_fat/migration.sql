-- AlterTable
ALTER TABLE "weight_reading" ADD COLUMN "body_fat_id" UUID;

-- CreateTable
CREATE TABLE "imported_body_fat" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "external_id" TEXT NOT NULL,
    "ts" TIMESTAMPTZ(3) NOT NULL,
    "body_fat_pct" DOUBLE PRECISION NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "imported_body_fat_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "imported_body_fat_account_id_ts_idx" ON "imported_body_fat"("account_id", "ts");

-- CreateIndex
CREATE UNIQUE INDEX "imported_body_fat_account_id_external_id_key" ON "imported_body_fat"("account_id", "external_id");
