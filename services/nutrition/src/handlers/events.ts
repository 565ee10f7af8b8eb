import { bodyMetricsEvents, nutritionEvents } from "@fit/contracts";
import type { Bus } from "@fit/bus";
import type { Store } from "../store/store.ts";

/**
 * Every subscription of the nutrition service, in one place. Durable names are per purpose, so replicas of
 * this service share the work and a replay reaches each purpose once.
 */
export const subscribeNutritionEvents = async (bus: Bus, store: Store) => {
  const itemEvents = [nutritionEvents.itemLogged, nutritionEvents.itemUpdated, nutritionEvents.itemDeleted];
  const subscriptions = await Promise.all(
    itemEvents.map((def) =>
      bus.subscribe(def, `nutrition-rollup-${def.subject.split(".").at(-1)}`, async ({ id, data }) => {
        await store.recomputeDay(data.accountId, data.date, id);
        if (data.previousDate) await store.recomputeDay(data.accountId, data.previousDate, id);
      }),
    ),
  );
  subscriptions.push(
    await bus.subscribe(bodyMetricsEvents.targetsUpdated, "nutrition-targets", async ({ occurredAt, data }) => {
      await store.applyTargets(
        data.accountId,
        { dailyKcalTarget: data.targets?.dailyKcalTarget ?? null, proteinTargetG: data.targets?.proteinTargetG ?? null },
        new Date(occurredAt),
      );
    }),
  );
  return subscriptions;
};
