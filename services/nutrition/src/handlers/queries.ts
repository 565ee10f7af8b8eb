import { nutritionBus } from "@fit/contracts";
import type { Bus } from "@fit/bus";
import { toDailyTotal } from "../domain/daily-total.ts";
import type { Store } from "../store/store.ts";

/** The questions other services ask nutrition over the bus; stop the returned handles on close. */
export const serveNutritionQueries = (bus: Bus, store: Store) => [
  bus.serve(nutritionBus.dayTotal, async ({ accountId, email, date }) => {
    const [total, targets] = await Promise.all([store.dayTotal(accountId, date), store.getTargets(accountId)]);
    return total ? toDailyTotal(total, targets, email) : null;
  }),
  bus.serve(nutritionBus.dayItems, async ({ accountId, date }) =>
    (await store.listItems(accountId, date)).map(({ name, kcal, proteinG }) => ({ name, kcal, proteinG })),
  ),
];
