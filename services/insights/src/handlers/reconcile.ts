import type { Bus } from "@fit/bus";
import { utcDay } from "@fit/contracts";
import type { Store } from "../store/store.ts";
import { refreshIntakeDays, refreshReadings } from "./sources.ts";

interface Logger {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

const DAY_MS = 86_400_000;

interface ReconcileOptions {
  /** Days back from now whose weigh-ins and food days are compared with their owners'. */
  windowDays: number;
  now?: number;
}

/**
 * The read model's repair (docs/decisions/0069-insights-service-read-model.md): for every account it holds, the
 * recent weigh-ins and food days become what body-metrics and nutrition answer now, so an event lost on the way,
 * or a deletion applied before the reading it deletes, is mended. One replica at a time: resolves how many
 * accounts it went through, or null when another replica's pass is running.
 */
const reconcileReadModel = (bus: Bus, store: Store, { windowDays, now = Date.now() }: ReconcileOptions): Promise<number | null> =>
  store.exclusively("reconcile-insights", async () => {
    // A day after now as well: a reading may be logged up to a day ahead of the clock (ADR 0064).
    const [from, to] = [now - (windowDays + 1) * DAY_MS, now + 2 * DAY_MS];
    const accounts = await store.knownAccounts();
    for (const accountId of accounts) {
      await refreshReadings(bus, store, accountId, from, to);
      await refreshIntakeDays(bus, store, accountId, utcDay(from), utcDay(to));
    }
    return accounts.length;
  }).then((ran) => ran && ran.value);

export const startReconciliation = (bus: Bus, store: Store, { intervalMs, windowDays }: { intervalMs: number; windowDays: number }, logger: Logger) => {
  const timer = setInterval(() => {
    reconcileReadModel(bus, store, { windowDays })
      .then((accounts) => accounts && logger.info({ accounts }, "reconciled the insights read model"))
      .catch((error: unknown) => logger.error({ err: error }, "insights reconciliation failed"));
  }, intervalMs);
  timer.unref();
  return { stop: async () => clearInterval(timer) };
};
