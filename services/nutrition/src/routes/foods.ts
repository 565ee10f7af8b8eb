import { AppError, operations } from "@fit/contracts";
import { serveOperation, type ServiceContext } from "@fit/service-kit";
import type { Store } from "../store/store.ts";

export const foodRoutes = ({ app, store }: ServiceContext<Store>) => {
  serveOperation(app, operations.searchFoods, ({ query, caller }) => store.foods.search(caller.accountId, query.q, query.limit));

  serveOperation(app, operations.listRecentFoods, ({ query, caller }) => store.foods.recent(caller.accountId, query.limit));

  serveOperation(app, operations.getFood, async ({ params }) => {
    const food = await store.foods.get(params.id);
    if (!food) throw new AppError("not_found", `no food ${params.id}`);
    return food;
  });
};
