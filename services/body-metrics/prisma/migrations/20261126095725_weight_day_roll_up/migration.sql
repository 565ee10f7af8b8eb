-- CreateTable
CREATE TABLE "weight_day" (
    "account_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "sum_kg" DOUBLE PRECISION NOT NULL,
    "count" INTEGER NOT NULL,
    "last_ts" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "weight_day_pkey" PRIMARY KEY ("account_id","day")
);

-- CreateTable
CREATE TABLE "weight_roll_up" (
    "account_id" UUID NOT NULL,
    "since" DATE NOT NULL,
    "through" DATE NOT NULL,

    CONSTRAINT "weight_roll_up_pkey" PRIMARY KEY ("account_id")
);

-- Kept in the reading's own transaction, so no write path can forget it (docs/decisions/0043-weight-day-roll-up.md).
-- Only days before the last three are kept: today's writes, nearly all of them, then touch no shared row; the
-- store sums the last days from the readings when read. Every change to a kept day first takes that day's
-- advisory lock, in a fixed order, so a day summed again sees every committed reading and no concurrent
-- addition is overwritten.
CREATE FUNCTION "weight_day_kept_through"() RETURNS DATE LANGUAGE sql STABLE AS $$
  SELECT (now() AT TIME ZONE 'UTC')::date - 3
$$;

CREATE FUNCTION "weight_day_lock"(account UUID, day DATE) RETURNS VOID LANGUAGE sql AS $$
  SELECT pg_advisory_xact_lock(hashtextextended('weight_day/' || account || '/' || day, 0))
$$;

CREATE FUNCTION "weight_day_add"() RETURNS TRIGGER LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  reading_day DATE := (NEW.ts AT TIME ZONE 'UTC')::date;
BEGIN
  PERFORM weight_day_lock(NEW.account_id, reading_day);
  INSERT INTO weight_day AS d (account_id, day, sum_kg, count, last_ts) VALUES (NEW.account_id, reading_day, NEW.weight_kg, 1, NEW.ts)
  ON CONFLICT (account_id, day) DO UPDATE
    SET sum_kg = d.sum_kg + EXCLUDED.sum_kg, count = d.count + 1, last_ts = greatest(d.last_ts, EXCLUDED.last_ts);
  RETURN NULL;
END $$;

CREATE FUNCTION "weight_day_sum_again"(accounts UUID[], days DATE[]) RETURNS VOID LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
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

CREATE FUNCTION "weight_day_remove"() RETURNS TRIGGER LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  PERFORM weight_day_sum_again(array_agg(account_id), array_agg(day))
  FROM (SELECT DISTINCT account_id, (ts AT TIME ZONE 'UTC')::date AS day FROM removed) touched
  WHERE day <= weight_day_kept_through();
  RETURN NULL;
END $$;

CREATE FUNCTION "weight_day_change"() RETURNS TRIGGER LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  PERFORM weight_day_sum_again(array_agg(account_id), array_agg(day))
  FROM (
    SELECT o.account_id, (o.ts AT TIME ZONE 'UTC')::date AS day FROM removed o JOIN added n USING (id)
    WHERE (o.ts, o.weight_kg, o.account_id) IS DISTINCT FROM (n.ts, n.weight_kg, n.account_id)
    UNION
    SELECT n.account_id, (n.ts AT TIME ZONE 'UTC')::date FROM removed o JOIN added n USING (id)
    WHERE (o.ts, o.weight_kg, o.account_id) IS DISTINCT FROM (n.ts, n.weight_kg, n.account_id)
  ) touched
  WHERE day <= weight_day_kept_through();
  RETURN NULL;
END $$;

-- Per row, so that the condition spares the last days' readings the call; the condition is
-- weight_day_kept_through() written out, as a function call there costs each insert ~10 %. The writes of the
-- service store one reading per statement, so a statement takes the day locks in order.
CREATE TRIGGER "weight_day_on_insert" AFTER INSERT ON "weight_reading"
  FOR EACH ROW WHEN (NEW.ts < (date_trunc('day', now() AT TIME ZONE 'UTC') - interval '2 days') AT TIME ZONE 'UTC')
  EXECUTE FUNCTION weight_day_add();
CREATE TRIGGER "weight_day_on_delete" AFTER DELETE ON "weight_reading"
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION weight_day_remove();
CREATE TRIGGER "weight_day_on_update" AFTER UPDATE ON "weight_reading"
  REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION weight_day_change();

-- Extends the account's complete range to the day before the kept days end (a day's margin for a transaction
-- that spans midnight), summing every day it adds again; a first roll starts 120 days back, enough for the
-- dashboard's 90. The store calls it when a read finds the range behind.
CREATE FUNCTION "weight_day_roll_forward"(account UUID) RETURNS VOID LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  upto DATE := weight_day_kept_through() - 1;
  start DATE;
BEGIN
  SELECT through + 1 INTO start FROM weight_roll_up WHERE account_id = account FOR UPDATE;
  start := coalesce(start, upto - 119);
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
  INSERT INTO weight_roll_up (account_id, since, through) VALUES (account, start, upto)
  ON CONFLICT (account_id) DO UPDATE SET through = EXCLUDED.through;
END $$;

INSERT INTO weight_day (account_id, day, sum_kg, count, last_ts)
SELECT account_id, (ts AT TIME ZONE 'UTC')::date, sum(weight_kg), count(*), max(ts) FROM weight_reading
WHERE (ts AT TIME ZONE 'UTC')::date <= weight_day_kept_through() GROUP BY 1, 2;

INSERT INTO weight_roll_up (account_id, since, through)
SELECT account_id, min(day), weight_day_kept_through() - 1 FROM weight_day GROUP BY 1;
