-- Outbox rows are claimed in a committed statement and published afterwards: a claim is this time stamp, and
-- lapses after the relay's lease, so the rows of a relay that died are taken by another.
ALTER TABLE "outbox_event" ADD COLUMN "claimed_at" TIMESTAMPTZ(3);
