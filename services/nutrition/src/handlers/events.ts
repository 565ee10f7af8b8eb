import { bodyMetricsEvents, nutritionItemEvents, nutritionRollupDurable, nutritionTargetsDurable } from "@fit/contracts";
import type { Bus } from "@fit/bus";
import type { Store } from "../store/store.ts";

/**
 * Every subscription of the nutrition service, in one place. Durable names are per purpose, so replicas of
 * this service share the work and a replay reaches each purpose once; they come from the contracts, which grant
 * this service's NATS user exactly those consumers (docs/decisions/0061-per-service-nats-users-and-database-roles.md).
 */
export const subscribeNutritionEvents = async (bus: Bus, store: Store) => {
  const subscriptions = await Promise.all(
    Object.values(nutritionItemEvents).map((def) =>
      bus.subscribe(def, nutritionRollupDurable(def), async ({ id, data }) => {
        await store.recomputeDay(data.accountId, data.date, id);
        if (data.previousDate) await store.recomputeDay(data.accountId, data.previousDate, id);
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
