-- AlterTable
ALTER TABLE "food_item" ADD COLUMN "external_id" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "food_item_account_id_external_id_key" ON "food_item"("account_id", "external_id");
