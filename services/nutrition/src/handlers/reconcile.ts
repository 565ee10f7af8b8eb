import type { Store } from "../store/store.ts";

interface Logger {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** A pending day older than this has lost its event; normally the projection applies it within milliseconds. */
export const STALE_PENDING_MS = 5 * 60_000;

/**
 * Recomputes every day whose stored total no longer equals the sum of its items, and applies the days whose
 * event never arrived (clearing their pending mark). Returns how many days it repaired.
 */
export const reconcileTotals = async (store: Store, now = Date.now()): Promise<number> => {
  const stale = await store.stalePendingDays(new Date(now - STALE_PENDING_MS));
  for (const { accountId, date, eventId } of stale) await store.recomputeDay(accountId, date, eventId);
  const days = await store.mismatchedDays();
  for (const { accountId, date } of days) await store.recomputeDay(accountId, date);
  return stale.length + days.length;
};

export const startReconciliation = (store: Store, intervalMs: number, logger: Logger) => {
  const timer = setInterval(() => {
    reconcileTotals(store)
      .then((repaired) => repaired > 0 && logger.info({ repaired }, "reconciled daily totals"))
      .catch((error: unknown) => logger.error({ err: error }, "reconciliation failed"));
  }, intervalMs);
  timer.unref();
  return { stop: async () => clearInterval(timer) };
};
