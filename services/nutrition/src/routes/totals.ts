import { operations } from "@fit/contracts";
import { serveOperation, type ServiceContext } from "@fit/service-kit";
import { MAX_DAILY_TOTALS, mergeTotals, toDailyTotal } from "../domain/daily-total.ts";
import type { Store } from "../store/store.ts";

export const totalRoutes = ({ app, store, relay }: ServiceContext<Store>) => {
  serveOperation(app, operations.listDailyTotals, async ({ caller }) => {
    const [{ stored, fresh }, targets] = await Promise.all([
      store.recentTotals(caller.accountId, MAX_DAILY_TOTALS),
      store.getTargets(caller.accountId),
    ]);
    return mergeTotals(stored, fresh, MAX_DAILY_TOTALS).map((day) => toDailyTotal(day, targets, caller.email));
  });

  serveOperation(app, operations.getNutritionDay, ({ params, caller }) => store.day(caller.accountId, params.date));

  serveOperation(app, operations.markNutritionDay, async ({ params, body, caller }) => {
    const day = await store.markDay(caller.accountId, params.date, body.mark);
    relay.kick();
    return day;
  });
};
