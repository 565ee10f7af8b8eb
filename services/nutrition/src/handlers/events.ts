import { bodyMetricsEvents, nutritionItemEvents, nutritionRollupDurable, nutritionTargetsDurable } from "@fit/contracts";
import type { Bus } from "@fit/bus";
import type { PendingDayRef, Store } from "../store/store.ts";

/** The days an item event marked pending: its date, and the one it moved from. */
const daysOf = ({ id, data }: { id: string; data: { accountId: string; date: string; previousDate?: string | null | undefined } }): PendingDayRef[] =>
  [data.date, data.previousDate].flatMap((date) => (date ? [{ accountId: data.accountId, date, eventId: id }] : []));

/**
 * Every subscription of the nutrition service, in one place. Durable names are per purpose, so replicas of
 * this service share the work and a replay reaches each purpose once; they come from the contracts, which grant
 * this service's NATS user exactly those consumers (docs/decisions/0061-per-service-nats-users-and-database-roles.md).
 */
export const subscribeNutritionEvents = async (bus: Bus, store: Store) => {
  const subscriptions = await Promise.all(
    Object.values(nutritionItemEvents).map((def) =>
      bus.subscribe(def, nutritionRollupDurable(def), async (event) => store.recomputeDays(daysOf(event)), {
        // A burst of writes (an import, a day logged at once) is one look at which days are still pending.
        batch: async (events) => store.recomputeDays(events.flatMap(daysOf)),
      }),
    ),
  );
  subscriptions.push(
    await bus.subscribe(bodyMetricsEvents.targetsUpdated, nutritionTargetsDurable, async ({ occurredAt, data }) => {
      await store.applyTargets(
        data.accountId,
        { dailyKcalTarget: data.targets?.dailyKcalTarget ?? null, proteinTargetG: data.targets?.proteinTargetG ?? null },
        new Date(occurredAt),
      );
    }),
  );
  return subscriptions;
};
