import { bodyMetricsEvents, insightsDurable, nutritionEvents } from "@fit/contracts";
import type { Bus } from "@fit/bus";
import type { Store } from "../store/store.ts";
import { ensureBackfilled, refreshIntakeDays } from "./sources.ts";

/** Each account a batch names back-filled first, once, as for a single event. */
const ensureAllBackfilled = async (bus: Bus, store: Store, accountIds: string[]) => {
  for (const accountId of new Set(accountIds)) await ensureBackfilled(bus, store, accountId);
};

const readingOf = ({ readingId, ts, weightKg }: { readingId: string; ts: number; weightKg: number }) => ({ id: readingId, ts, weightKg });

/** Each day the food events changed (its date, and the one an item moved from) copied from nutrition once. */
const refreshChangedDays = async (bus: Bus, store: Store, changes: { accountId: string; date: string; previousDate?: string | null | undefined }[]) => {
  const days = new Map<string, { accountId: string; date: string }>();
  for (const { accountId, date, previousDate } of changes) {
    for (const day of [date, previousDate]) if (day) days.set(`${accountId}/${day}`, { accountId, date: day });
  }
  await ensureAllBackfilled(bus, store, changes.map((change) => change.accountId));
  for (const { accountId, date } of days.values()) await refreshIntakeDays(bus, store, accountId, date, date);
};

/**
 * Every subscription of the insights service, in one place: weigh-ins logged and deleted, and each food-item
 * change or day mark, which refreshes its day(s) from nutrition; an account met for the first time is back-filled
 * first. Each handler is idempotent; durables come from the contracts.
 */
export const subscribeInsightsEvents = async (bus: Bus, store: Store) => [
  await bus.subscribe(
    bodyMetricsEvents.weightLogged,
    insightsDurable(bodyMetricsEvents.weightLogged),
    async ({ data }) => {
      await ensureBackfilled(bus, store, data.accountId);
      await store.addReading(data.accountId, readingOf(data));
    },
    {
      // Weigh-ins come in bursts (a scale's history, many people at once): those waiting go in one statement.
      batch: async (events) => {
        await ensureAllBackfilled(bus, store, events.map(({ data }) => data.accountId));
        await store.addReadings(events.map(({ data }) => ({ accountId: data.accountId, ...readingOf(data) })));
      },
    },
  ),
  await bus.subscribe(bodyMetricsEvents.weightDeleted, insightsDurable(bodyMetricsEvents.weightDeleted), async ({ data }) => {
    await ensureBackfilled(bus, store, data.accountId);
    await store.deleteReading(data.accountId, data.readingId);
  }),
  ...(await Promise.all(
    Object.values(nutritionEvents).map((def) =>
      bus.subscribe(def, insightsDurable(def), async ({ data }) => refreshChangedDays(bus, store, [data]), {
        // A day logged at once, or an import, is a burst of events about the same few days: each asked once.
        batch: async (events) => refreshChangedDays(bus, store, events.map(({ data }) => data)),
      }),
    ),
  )),
];
