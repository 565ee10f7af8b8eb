import { bodyMetricsBus } from "@fit/contracts";
import type { Bus } from "@fit/bus";
import { shoulderToWaist } from "../domain/measurements.ts";
import { withDailyTargets } from "../domain/targets.ts";
import { endOfDay, summaryOf } from "../domain/weight-summary.ts";
import type { Store } from "../store/store.ts";

/**
 * The questions other services ask body-metrics over the bus; stop the returned handles on close. Each is one
 * statement (docs/decisions/0047-one-statement-per-bus-question.md).
 */
export const serveBodyMetricsQueries = (bus: Bus, store: Store, relay: { kick(): void }) => {
  const overview = async (accountId: string, date: string, parts: { measurements?: boolean } = {}) => {
    const { weight, targets, measurements } = await store.overview(accountId, endOfDay(date), parts);
    return { weight: weight && summaryOf(weight), targets, measurements };
  };

  return [
    bus.serve(bodyMetricsBus.weightSummary, async ({ accountId, date }) => {
      const aggregates = await store.weightAggregates(accountId, endOfDay(date));
      return aggregates && summaryOf(aggregates);
    }),

    bus.serve(bodyMetricsBus.overview, async ({ accountId, date }) => {
      const { weight, targets } = await overview(accountId, date);
      return { weight, targets };
    }),

    bus.serve(bodyMetricsBus.weightReadings, async ({ accountId, from, to }) =>
      (await store.readingsBetween(accountId, from, to)).map(({ id, ts, weightKg }) => ({ id, ts: ts.getTime(), weightKg })),
    ),

    bus.serve(bodyMetricsBus.setDailyTargets, async ({ accountId, dailyKcalTarget, proteinTargetG }) => {
      const targets = await store.replaceTargets(accountId, withDailyTargets(await store.getTargets(accountId), { dailyKcalTarget, proteinTargetG }));
      relay.kick();
      return targets;
    }),

    bus.serve(bodyMetricsBus.dashboard, async ({ accountId, date }) => {
      const { weight, targets, measurements } = await overview(accountId, date, { measurements: true });
      return { weight, targets, measurementsLatest: measurements, shoulderToWaist: shoulderToWaist(measurements) };
    }),
  ];
};
