import type { Store } from "../store/store.ts";

interface Logger {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** Recomputes every day whose stored total no longer equals the sum of its items. Returns how many. */
export const reconcileTotals = async (store: Store): Promise<number> => {
  const days = await store.mismatchedDays();
  for (const { accountId, date } of days) await store.recomputeDay(accountId, date);
  return days.length;
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
