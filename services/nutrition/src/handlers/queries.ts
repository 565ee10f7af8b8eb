import { nutritionBus } from "@fit/contracts";
import type { Bus } from "@fit/bus";
import { toDailyTotal } from "../domain/daily-total.ts";
import { chooseFood, databaseWords } from "../domain/food-match.ts";
import type { Store } from "../store/store.ts";

/** How many of search's best foods the match rule chooses among: enough to hold the cooked form of "eggs". */
const CANDIDATES = 60;

/** The database's food for one phrase, with its portions; null when none fits or it has no kcal or protein value. */
const matchFood = async (store: Store, accountId: string, phrase: string) => {
  const words = databaseWords(phrase);
  if (words.length === 0) return null;
  const chosen = chooseFood(words, await store.foods.search(accountId, words.join(" "), CANDIDATES));
  const food = chosen && (await store.foods.get(chosen.food.id));
  if (!chosen || !food) return null;
  const { kcal, proteinG, fatG, carbsG, fiberG } = food.per100g;
  if (kcal === null || proteinG === null) return null;
  const portions = food.portions.map(({ amount, unit, grams }) => ({ amount, unit, grams }));
  return { id: food.id, name: food.name, per100g: { kcal, proteinG, fatG, carbsG, fiberG }, portions, inHead: chosen.inHead };
};

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
  bus.serve(nutritionBus.matchFoods, async ({ accountId, phrases }) => ({
    matches: await Promise.all(phrases.map((phrase) => matchFood(store, accountId, phrase))),
  })),
];
