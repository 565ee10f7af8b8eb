import { randomUUID } from "node:crypto";
import { ack, AppError, operations } from "@fit/contracts";
import { serveOperation, type ServiceContext } from "@fit/service-kit";
import type { Store } from "../store/store.ts";

const notFound = () => new AppError("not_found", "food item not found");

export const itemRoutes = ({ app, store, relay }: ServiceContext<Store>) => {
  serveOperation(app, operations.logFoodItem, async ({ body, caller, record }) => {
    const [item] = await store.addItems([{ ...body, id: randomUUID(), accountId: caller.accountId }], ([view]) => record(view));
    relay.kick();
    return item!;
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
