import { bodyMetricsBus, insightsBus } from "@fit/contracts";
import type { Bus } from "@fit/bus";
import { addDays } from "../domain/calendar.ts";
import { firstDayRead, insightsOf, todayIn, trendNowOf } from "../domain/insights.ts";
import type { Store } from "../store/store.ts";
import { ensureBackfilled } from "./sources.ts";

export const TARGETS_TIMEOUT_MS = 5000;

/**
 * The profile and the day means the answer as of `asOf` rests on: whole local days from the day before
 * firstDayRead(asOf) to `asOf` (docs/decisions/0087-insights-weight-days.md).
 */
const weightDaysFor = (store: Store, accountId: string, asOf: string) => store.weightDaysOf(accountId, addDays(firstDayRead(asOf), -1), asOf);

/** The insights of an account as of `date` (default its local today): the read model, and the goal from body-metrics. */
export const insightsFor = async (bus: Bus, store: Store, accountId: string, date?: string) => {
  await ensureBackfilled(bus, store, accountId);
  const asOf = date ?? todayIn((await store.getProfile(accountId)).timeZone);
  const [{ profile, days }, intake, { targets }] = await Promise.all([
    weightDaysFor(store, accountId, asOf),
    store.intakeSince(accountId, firstDayRead(asOf)),
    bus.request(bodyMetricsBus.overview, { accountId, date: asOf }, { timeoutMs: TARGETS_TIMEOUT_MS }),
  ]);
  return insightsOf({ asOf, profile, days, intake, targets });
};

/** The questions other services ask insights (the dashboard's trend, the coach's insights); stop the returned handles on close. */
export const serveInsightsQueries = (bus: Bus, store: Store) => [
  bus.serve(insightsBus.trend, async ({ accountId, date }) => {
    await ensureBackfilled(bus, store, accountId);
    const { days } = await weightDaysFor(store, accountId, date);
    return trendNowOf({ asOf: date, days });
  }),
  bus.serve(insightsBus.insights, ({ accountId, date }) => insightsFor(bus, store, accountId, date)),
];
