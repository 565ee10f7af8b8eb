import { AppError, bodyMetricsBus, operations } from "@fit/contracts";
import { serveOperation, type ServiceContext } from "@fit/service-kit";
import { insightsFor, TARGETS_TIMEOUT_MS } from "../handlers/read-insights.ts";
import type { Store } from "../store/store.ts";

export const insightsRoutes = ({ app, store, bus }: ServiceContext<Store>) => {
  serveOperation(app, operations.getInsights, ({ query, caller }) => insightsFor(bus, store, caller.accountId, query.date));

  serveOperation(app, operations.adoptSuggestedTargets, async ({ caller }) => {
    const { suggestedTargets } = await insightsFor(bus, store, caller.accountId);
    if (!suggestedTargets) throw new AppError("unprocessable", "there is no suggestion yet: it needs a goal weight (PUT /api/targets) and a weigh-in");
    return bus.request(
      bodyMetricsBus.setDailyTargets,
      { accountId: caller.accountId, dailyKcalTarget: suggestedTargets.dailyKcal, proteinTargetG: suggestedTargets.dailyProteinG },
      { timeoutMs: TARGETS_TIMEOUT_MS },
    );
  });
};
