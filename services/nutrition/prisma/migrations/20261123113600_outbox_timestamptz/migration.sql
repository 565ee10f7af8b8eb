-- The outbox's times become TIMESTAMPTZ like every other table's. Existing values were written as UTC, so
-- they are read as UTC whatever the session's TimeZone.
ALTER TABLE "outbox_event"
  ALTER COLUMN "created_at" SET DATA TYPE TIMESTAMPTZ(3) USING "created_at" AT TIME ZONE 'UTC',
  ALTER COLUMN "sent_at" SET DATA TYPE TIMESTAMPTZ(3) USING "sent_at" AT TIME ZONE 'UTC';
