import { nutritionBus } from "@fit/contracts";
import type { Bus } from "@fit/bus";
import { toDailyTotal } from "../domain/daily-total.ts";
import type { Store } from "../store/store.ts";

/** The questions other services ask nutrition over the bus; stop the returned handles on close. */
export const serveNutritionQueries = (bus: Bus, store: Store) => [
  bus.serve(nutritionBus.dayTotal, async ({ accountId, email, date }) => {
    const day = await store.dayTotal(accountId, date);
    return day && toDailyTotal(day.total, day.targets, email);
  }),
  bus.serve(nutritionBus.intakeDays, ({ accountId, from, to }) => store.intakeDays(accountId, from, to)),
  bus.serve(nutritionBus.dayItems, async ({ accountId, date }) =>
    (await store.listItems(accountId, date)).map(({ name, kcal, proteinG }) => ({ name, kcal, proteinG })),
  ),
];
