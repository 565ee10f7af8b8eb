import { bodyMetricsBus, insightsBus } from "@fit/contracts";
import type { Bus } from "@fit/bus";
import { firstDayRead, insightsOf, todayIn, trendNowOf } from "../domain/insights.ts";
import type { Store } from "../store/store.ts";
import { ensureBackfilled } from "./sources.ts";

export const TARGETS_TIMEOUT_MS = 5000;
const DAY_MS = 86_400_000;

/**
 * The readings the answer as of `asOf` rests on: from firstDayRead(asOf) to the end of `asOf`, a day more on both
 * sides, since a local day is up to 14 hours off its UTC day.
 */
const readingsFor = async (store: Store, accountId: string, asOf: string) => {
  const readings = await store.readingsSince(accountId, Date.parse(`${firstDayRead(asOf)}T00:00:00Z`) - DAY_MS);
  return readings.filter((r) => r.ts < Date.parse(`${asOf}T00:00:00Z`) + 2 * DAY_MS);
};

/** The insights of an account as of `date` (default its local today): the read model, and the goal from body-metrics. */
export const insightsFor = async (bus: Bus, store: Store, accountId: string, date?: string) => {
  await ensureBackfilled(bus, store, accountId);
  const profile = await store.getProfile(accountId);
  const asOf = date ?? todayIn(profile.timeZone);
  const [readings, intake, { targets }] = await Promise.all([
    readingsFor(store, accountId, asOf),
    store.intakeSince(accountId, firstDayRead(asOf)),
    bus.request(bodyMetricsBus.overview, { accountId, date: asOf }, { timeoutMs: TARGETS_TIMEOUT_MS }),
  ]);
  return insightsOf({ asOf, profile, readings, intake, targets });
};

/** The questions other services ask insights (the dashboard's trend, the coach's insights); stop the returned handles on close. */
export const serveInsightsQueries = (bus: Bus, store: Store) => [
  bus.serve(insightsBus.trend, async ({ accountId, date }) => {
    await ensureBackfilled(bus, store, accountId);
    const [profile, readings] = await Promise.all([store.getProfile(accountId), readingsFor(store, accountId, date)]);
    return trendNowOf({ asOf: date, profile, readings });
  }),
  bus.serve(insightsBus.insights, ({ accountId, date }) => insightsFor(bus, store, accountId, date)),
];
