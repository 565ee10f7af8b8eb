import { bodyMetricsBus } from "@fit/contracts";
import type { Bus } from "@fit/bus";
import { shoulderToWaist } from "../domain/measurements.ts";
import { endOfDay, summarizeWeights, summaryWindowStart } from "../domain/weight-summary.ts";
import type { Store } from "../store/store.ts";

/** The questions other services ask body-metrics over the bus; stop the returned handles on close. */
export const serveBodyMetricsQueries = (bus: Bus, store: Store) => {
  const weightSummary = async (accountId: string, date: string) => {
    const dayEnd = endOfDay(date);
    const newest = await store.newestReadingBefore(accountId, dayEnd);
    if (!newest) return null;
    return summarizeWeights(await store.readingsBetween(accountId, summaryWindowStart(newest.ts, dayEnd), dayEnd), dayEnd);
  };

  return [
    bus.serve(bodyMetricsBus.weightSummary, ({ accountId, date }) => weightSummary(accountId, date)),

    bus.serve(bodyMetricsBus.overview, async ({ accountId, date }) => {
      const [weight, targets] = await Promise.all([weightSummary(accountId, date), store.getTargets(accountId)]);
      return { weight, targets };
    }),

    bus.serve(bodyMetricsBus.measurementsLatest, async ({ accountId }) => {
      const latest = await store.latestMeasurements(accountId);
      return { measurementsLatest: latest, shoulderToWaist: shoulderToWaist(latest) };
    }),
  ];
};
