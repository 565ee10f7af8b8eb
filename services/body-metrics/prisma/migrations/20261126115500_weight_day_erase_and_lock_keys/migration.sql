-- The day lock's key from the day's number, not its text, which follows the session's DateStyle: two sessions
-- with different settings would otherwise lock different keys for one day.
CREATE OR REPLACE FUNCTION "weight_day_lock"(account UUID, day DATE) RETURNS VOID LANGUAGE sql AS $$
  SELECT pg_advisory_xact_lock(hashtextextended('weight_day/' || account || '/' || (day - DATE '2000-01-01'), 0))
$$;

-- A roll for an account without any reading leaves no range behind: after the account's erasure, a read that
-- raced it must not bring its row back. The erasure deletes the range first, so the two take the range's row
-- and then the day locks in one order (docs/decisions/0043-weight-day-roll-up.md).
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
    start := upto - 119;
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
  INSERT INTO weight_roll_up (account_id, since, through)
  SELECT account, start, upto WHERE EXISTS (SELECT 1 FROM weight_reading WHERE account_id = account)
  ON CONFLICT (account_id) DO UPDATE SET through = EXCLUDED.through;
END $$;
