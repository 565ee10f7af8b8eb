-- Reconciliation looks at recent days of every account, not the whole table.
-- CreateIndex
CREATE INDEX "daily_total_date_idx" ON "daily_total"("date");

-- CreateIndex
CREATE INDEX "food_item_date_idx" ON "food_item"("date");
