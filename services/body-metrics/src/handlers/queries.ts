import { bodyMetricsBus } from "@fit/contracts";
import type { Bus } from "@fit/bus";
import { shoulderToWaist } from "../domain/measurements.ts";
import { endOfDay, summaryOf } from "../domain/weight-summary.ts";
import type { Store } from "../store/store.ts";

/** The questions other services ask body-metrics over the bus; stop the returned handles on close. */
export const serveBodyMetricsQueries = (bus: Bus, store: Store) => {
  const weightSummary = async (accountId: string, date: string) => {
    const aggregates = await store.weightAggregates(accountId, endOfDay(date));
    return aggregates && summaryOf(aggregates);
  };

  const overview = async (accountId: string, date: string) => {
    const [weight, targets] = await Promise.all([weightSummary(accountId, date), store.getTargets(accountId)]);
    return { weight, targets };
  };

  return [
    bus.serve(bodyMetricsBus.weightSummary, ({ accountId, date }) => weightSummary(accountId, date)),

    bus.serve(bodyMetricsBus.overview, ({ accountId, date }) => overview(accountId, date)),

    bus.serve(bodyMetricsBus.dashboard, async ({ accountId, date }) => {
      const [summary, latest] = await Promise.all([overview(accountId, date), store.latestMeasurements(accountId)]);
      return { ...summary, measurements: { measurementsLatest: latest, shoulderToWaist: shoulderToWaist(latest) } };
    }),
  ];
};
