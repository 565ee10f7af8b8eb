import { AppError, operations } from "@fit/contracts";
import { serveOperation, type ServiceContext } from "@fit/service-kit";
import type { FoodFinder } from "../lookup/food-finder.ts";
import type { Store } from "../store/store.ts";

export const foodRoutes = ({ app, store }: ServiceContext<Store>, foods: FoodFinder) => {
  serveOperation(app, operations.searchFoods, ({ query }) => store.foods.search(query.q, query.limit));

  serveOperation(app, operations.getFood, async ({ params }) => {
    const food = await foods.byId(params.id);
    if (!food) throw new AppError("not_found", `no food ${params.id}`);
    return food;
  });

  serveOperation(app, operations.getFoodByBarcode, ({ params }) => foods.byBarcode(params.code));
};
