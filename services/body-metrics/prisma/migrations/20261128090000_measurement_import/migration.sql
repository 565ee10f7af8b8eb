-- AlterTable
ALTER TABLE "measurement" ADD COLUMN     "external_id" TEXT,
ADD COLUMN     "source" TEXT NOT NULL DEFAULT 'manual';

-- CreateIndex
CREATE UNIQUE INDEX "measurement_account_id_external_id_key" ON "measurement"("account_id", "external_id");
