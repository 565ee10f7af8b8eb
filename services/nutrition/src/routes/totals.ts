import { operations } from "@fit/contracts";
import { serveOperation, type HttpApp } from "@fit/service-kit";
import { MAX_DAILY_TOTALS, mergeTotals, toDailyTotal } from "../domain/daily-total.ts";
import type { ServiceContext } from "@fit/service-kit";
import type { Store } from "../store/store.ts";

type RouteDeps = Pick<ServiceContext<Store>, "store" | "relay">;

export const totalRoutes = (app: HttpApp, { store }: RouteDeps) => {
  serveOperation(app, operations.listDailyTotals, async ({ caller }) => {
    const [{ stored, fresh }, targets] = await Promise.all([
      store.recentTotals(caller.accountId, MAX_DAILY_TOTALS),
      store.getTargets(caller.accountId),
    ]);
    return mergeTotals(stored, fresh, MAX_DAILY_TOTALS).map((day) => toDailyTotal(day, targets, caller.email));
  });
};
