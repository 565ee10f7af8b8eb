-- A version of the account's kept days, so that a replica holding them in memory can ask in its read whether
-- they are still what it holds and skip reading them again (docs/decisions/0053-kept-days-held-by-version.md).
-- A new value from a sequence at every change, never a count: an erased account's range, made again, must not
-- repeat a value a replica still holds.
CREATE SEQUENCE "weight_roll_up_version";
ALTER TABLE "weight_roll_up" ADD COLUMN "version" BIGINT NOT NULL DEFAULT nextval('weight_roll_up_version');

-- Gives the accounts' ranges a new version, in the changing transaction, before any day lock: a roll takes the
-- range's row and then the day locks, and so must every change to a kept day, or the two would deadlock.
CREATE FUNCTION "weight_roll_up_changed"(accounts UUID[]) RETURNS VOID LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  PERFORM 1 FROM weight_roll_up WHERE account_id = ANY(accounts) ORDER BY account_id FOR UPDATE;
  UPDATE weight_roll_up SET version = nextval('weight_roll_up_version') WHERE account_id = ANY(accounts);
END $$;

CREATE OR REPLACE FUNCTION "weight_day_add"() RETURNS TRIGGER LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  reading_day DATE := (NEW.ts AT TIME ZONE 'UTC')::date;
BEGIN
  PERFORM weight_roll_up_changed(ARRAY[NEW.account_id]);
  PERFORM weight_day_lock(NEW.account_id, reading_day);
  INSERT INTO weight_day AS d (account_id, day, sum_kg, count, last_ts) VALUES (NEW.account_id, reading_day, NEW.weight_kg, 1, NEW.ts)
  ON CONFLICT (account_id, day) DO UPDATE
    SET sum_kg = d.sum_kg + EXCLUDED.sum_kg, count = d.count + 1, last_ts = greatest(d.last_ts, EXCLUDED.last_ts);
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION "weight_day_sum_again"(accounts UUID[], days DATE[]) RETURNS VOID LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  PERFORM weight_roll_up_changed(accounts);
  PERFORM weight_day_lock(account_id, day)
  FROM (SELECT DISTINCT account_id, day FROM unnest(accounts, days) AS t(account_id, day)) touched ORDER BY account_id, day;
  -- A statement of its own after the locks: its snapshot holds every reading committed before them.
  WITH touched AS (SELECT DISTINCT account_id, day FROM unnest(accounts, days) AS t(account_id, day)),
  totals AS (
    SELECT t.account_id, t.day, s.sum_kg, s.count, s.last_ts FROM touched t
    CROSS JOIN LATERAL (
      SELECT sum(r.weight_kg) AS sum_kg, count(*)::int AS count, max(r.ts) AS last_ts FROM weight_reading r
      WHERE r.account_id = t.account_id AND r.ts >= t.day::timestamp AT TIME ZONE 'UTC'
        AND r.ts < (t.day + 1)::timestamp AT TIME ZONE 'UTC'
    ) s
  ), emptied AS (
    DELETE FROM weight_day d USING totals t WHERE d.account_id = t.account_id AND d.day = t.day AND t.count = 0
  )
  INSERT INTO weight_day (account_id, day, sum_kg, count, last_ts)
  SELECT account_id, day, sum_kg, count, last_ts FROM totals WHERE count > 0
  ON CONFLICT (account_id, day) DO UPDATE SET sum_kg = EXCLUDED.sum_kg, count = EXCLUDED.count, last_ts = EXCLUDED.last_ts;
END $$;

-- A first roll makes the range's row, empty, before anything else, so that it too holds the row before the
-- day locks; once summed, the row keeps the range, or goes when an erasure has taken the readings meanwhile.
CREATE OR REPLACE FUNCTION "weight_day_roll_forward"(account UUID) RETURNS VOID LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  upto DATE := weight_day_kept_through() - 1;
  start DATE;
BEGIN
  SELECT through + 1 INTO start FROM weight_roll_up WHERE account_id = account FOR UPDATE;
  IF start IS NULL THEN
    IF NOT EXISTS (SELECT 1 FROM weight_reading WHERE account_id = account) THEN
      RETURN;
    END IF;
    -- Nothing when another roll made the range meanwhile: that roll has rolled it.
    INSERT INTO weight_roll_up (account_id, since, through) VALUES (account, upto - 119, upto - 120)
    ON CONFLICT (account_id) DO NOTHING RETURNING through + 1 INTO start;
    IF start IS NULL THEN
      RETURN;
    END IF;
  END IF;
  IF start > upto THEN
    RETURN;
  END IF;
  PERFORM weight_day_sum_again(array_agg(account), array_agg(day))
  FROM (
    SELECT (ts AT TIME ZONE 'UTC')::date AS day FROM weight_reading
    WHERE account_id = account AND ts >= start::timestamp AT TIME ZONE 'UTC' AND ts < (upto + 1)::timestamp AT TIME ZONE 'UTC'
    UNION
    SELECT day FROM weight_day WHERE account_id = account AND day BETWEEN start AND upto
  ) touched;
  -- Checked again in a statement of its own: an erasure that held the day locks above has committed by now.
  IF EXISTS (SELECT 1 FROM weight_reading WHERE account_id = account) THEN
    UPDATE weight_roll_up SET through = upto WHERE account_id = account;
  ELSE
    DELETE FROM weight_roll_up WHERE account_id = account;
  END IF;
END $$;
