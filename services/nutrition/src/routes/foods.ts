import { AppError, operations } from "@fit/contracts";
import { serveOperation, type ServiceContext } from "@fit/service-kit";
import { MAX_QUERY_WORDS, searchWords } from "../domain/food-words.ts";
import type { FoodFinder } from "../lookup/food-finder.ts";
import type { Store } from "../store/store.ts";

export const foodRoutes = ({ app, store }: ServiceContext<Store>, foods: FoodFinder) => {
  // The person's own foods and recipes first, then the database's to fill the limit.
  serveOperation(app, operations.searchFoods, async ({ query, caller }) => {
    const words = searchWords(query.q).slice(0, MAX_QUERY_WORDS);
    if (words.length === 0) return [];
    const own = await store.ownFoods.search(caller.accountId, words, query.limit);
    return own.length === query.limit ? own : [...own, ...(await store.foods.search(caller.accountId, query.q, query.limit - own.length))];
  });

  serveOperation(app, operations.listRecentFoods, ({ query, caller }) => foods.recent(caller.accountId, query.limit));

  serveOperation(app, operations.getFood, async ({ params, caller }) => {
    const food = await foods.byId(caller.accountId, params.id);
    if (!food) throw new AppError("not_found", `no food ${params.id}`);
    return food;
  });

  serveOperation(app, operations.getFoodByBarcode, ({ params }) => foods.byBarcode(params.code));
};
