import { bodyMetricsBus } from "@fit/contracts";
import type { Bus } from "@fit/bus";
import { shoulderToWaist } from "../domain/measurements.ts";
import { endOfDay, summarizeWeights, summaryWindowStart } from "../domain/weight-summary.ts";
import type { Store } from "../store/store.ts";

/** The questions other services ask body-metrics over the bus; stop the returned handles on close. */
export const serveBodyMetricsQueries = (bus: Bus, store: Store) => [
  bus.serve(bodyMetricsBus.weightSummary, async ({ accountId, date }) => {
    const dayEnd = endOfDay(date);
    const newest = await store.newestReadingBefore(accountId, dayEnd);
    if (!newest) return null;
    return summarizeWeights(await store.readingsBetween(accountId, summaryWindowStart(newest.ts, dayEnd), dayEnd), dayEnd);
  }),

  bus.serve(bodyMetricsBus.targets, ({ accountId }) => store.getTargets(accountId)),

  bus.serve(bodyMetricsBus.measurementsLatest, async ({ accountId }) => {
    const latest = await store.latestMeasurements(accountId);
    return { measurementsLatest: latest, shoulderToWaist: shoulderToWaist(latest) };
  }),
];
