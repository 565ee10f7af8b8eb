-- The relay claims the oldest unsent rows: an index of exactly those, in the claim's order, so a claim reads
-- about a hundred entries however many sent rows (and their dead versions) the table holds; prune reads the
-- sent ones. The old (sent_at, created_at) index made every claim walk all of them, growing with each write
-- until autovacuum ran (docs/decisions/0038-outbox-pending-index.md).
-- DropIndex
DROP INDEX "outbox_event_sent_at_created_at_idx";

-- CreateIndex
CREATE INDEX "outbox_event_pending_idx" ON "outbox_event"("created_at", "id") WHERE (sent_at IS NULL);

-- CreateIndex
CREATE INDEX "outbox_event_sent_idx" ON "outbox_event"("sent_at") WHERE (sent_at IS NOT NULL);

-- Every row is written three times (insert, claim, settle): vacuum after a fixed number of dead versions rather
-- than a fifth of a table that keeps an hour of sent rows.
ALTER TABLE "outbox_event" SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 10000);
