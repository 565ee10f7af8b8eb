import { randomUUID } from "node:crypto";
import { ack, AppError, operations, type FoodPortionChoice } from "@fit/contracts";
import { serveOperation, type ServiceContext } from "@fit/service-kit";
import { copiesOf, MAX_COPIED_ITEMS } from "../domain/copied-items.ts";
import { nutrientsFor, resolvePortion } from "../domain/food-portion.ts";
import type { FoodFinder } from "../lookup/food-finder.ts";
import type { Store } from "../store/store.ts";

const notFound = () => new AppError("not_found", "food item not found");

/** A food (the database's, a product by its barcode or the account's own) and a portion of it as an item's name and numbers, with the food as their source. */
const fromFood = async (foods: FoodFinder, accountId: string, foodId: string, portion: FoodPortionChoice) => {
  const food = await foods.byId(accountId, foodId);
  if (!food) throw new AppError("not_found", `no food ${foodId}`);
  const { grams, quantity, unit } = resolvePortion(foodId, food.portions, portion);
  return { name: food.name.slice(0, 200), quantity, unit, grams, source: foodId, ...nutrientsFor(foodId, food.per100g, grams) };
};

type Range = { low: number; high: number };

/** An estimate made elsewhere and checked before logging (a photo's preview), kept with the item as sent. */
const estimateColumns = ({ kcal, proteinG, source }: { kcal: Range; proteinG: Range; source: string }) => ({
  kcalLow: kcal.low, kcalHigh: kcal.high, proteinLow: proteinG.low, proteinHigh: proteinG.high, estimateSource: source,
});

export const itemRoutes = ({ app, store, relay }: ServiceContext<Store>, foods: FoodFinder) => {
  serveOperation(app, operations.logFoodItem, async ({ body, caller, record }) => {
    const { foodId, portion, estimate, ...typed } = body;
    // The contract lets a typed item through only with its name, kcal and protein, one from the database only with its portion.
    const item =
      foodId === undefined
        ? { ...typed, name: typed.name!, kcal: typed.kcal!, proteinG: typed.proteinG!, ...(estimate && estimateColumns(estimate)) }
        : { ...typed, ...(await fromFood(foods, caller.accountId, foodId, portion!)), ...(typed.name === undefined ? {} : { name: typed.name }) };
    const [logged] = await store.addItems([{ ...item, id: randomUUID(), accountId: caller.accountId }], ([view]) => record(view));
    relay.kick();
    return logged!;
  });

  serveOperation(app, operations.copyFoodItems, async ({ body: { from, to }, caller, record }) => {
    const { accountId } = caller;
    const originals = await store.itemsToCopy(accountId, from, MAX_COPIED_ITEMS + 1);
    if (originals.length === 0) throw new AppError("not_found", `from: nothing is logged on ${from.date}${from.meal ? ` at ${from.meal}` : ""}`);
    if (originals.length > MAX_COPIED_ITEMS) {
      throw new AppError("unprocessable", `from: more than ${MAX_COPIED_ITEMS} items on ${from.date}; copy one meal at a time`);
    }
    const copies = await store.addItems(copiesOf(originals, { accountId, date: to.date, meal: to.meal }), (views) => record(views));
    relay.kick();
    return copies;
  });

  serveOperation(app, operations.listFoodItems, ({ query, caller }) => store.listItems(caller.accountId, query.date));

  serveOperation(app, operations.editFoodItem, async ({ params, body, caller }) => {
    const item = await store.updateItem(caller.accountId, params.id, body);
    if (!item) throw notFound();
    relay.kick();
    return item;
  });

  serveOperation(app, operations.deleteFoodItem, async ({ params, caller }) => {
    if (!(await store.deleteItem(caller.accountId, params.id))) throw notFound();
    relay.kick();
    return ack;
  });
};
