import type { Store } from "../store/store.ts";

interface Logger {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** A pending day older than this has lost its event; normally the projection applies it within milliseconds. */
export const STALE_PENDING_MS = 5 * 60_000;

const DAY_MS = 86_400_000;

export interface ReconcileOptions {
  /** Days back from today whose totals are checked against their items. */
  windowDays: number;
  now?: number;
}

/**
 * Recomputes every recent day whose stored total no longer equals the sum of its items, and applies the days
 * whose event never arrived (clearing their pending mark), whatever their date: those are few and marked.
 * One replica at a time: resolves how many days it repaired, or null when another replica's pass is running.
 */
export const reconcileTotals = (store: Store, { windowDays, now = Date.now() }: ReconcileOptions): Promise<number | null> =>
  store.exclusively("reconcile-totals", async () => {
    const stale = await store.stalePendingDays(new Date(now - STALE_PENDING_MS));
    for (const { accountId, date, eventId } of stale) await store.recomputeDay(accountId, date, eventId);
    // A day is an account's local date, up to 14 hours off UTC's: one day more covers every zone.
    const since = new Date(now - (windowDays + 1) * DAY_MS).toISOString().slice(0, 10);
    const days = await store.mismatchedDays(since);
    for (const { accountId, date } of days) await store.recomputeDay(accountId, date);
    return stale.length + days.length;
  }).then((ran) => ran && ran.value);

export const startReconciliation = (store: Store, { intervalMs, windowDays }: { intervalMs: number; windowDays: number }, logger: Logger) => {
  const timer = setInterval(() => {
    reconcileTotals(store, { windowDays })
      .then((repaired) => repaired && logger.info({ repaired }, "reconciled daily totals"))
      .catch((error: unknown) => logger.error({ err: error }, "reconciliation failed"));
  }, intervalMs);
  timer.unref();
  return { stop: async () => clearInterval(timer) };
};
