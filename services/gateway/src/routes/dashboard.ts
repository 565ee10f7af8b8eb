import { AppError, bodyMetricsBus, insightsBus, nutritionBus, operations, utcDay, workoutsBus } from "@fit/contracts";
import type { Bus } from "@fit/bus";
import { JsonText, serveOperation, type HttpApp } from "@fit/service-kit";
import { dashboardJson } from "../domain/dashboard.ts";

/**
 * Fans out to body-metrics, nutrition, workouts and insights in parallel, one question each. A branch that fails
 * or misses its deadline makes the whole answer a 503: a partial snapshot would show "nothing logged" where data
 * exists. Insights' trend and rate are derived, not logged: without its answer they are null and the rest stands
 * (docs/decisions/0075-counted-days-and-insights-in-the-dashboard.md).
 */
export const dashboardRoute = (app: HttpApp, { bus, timeoutMs }: { bus: Bus; timeoutMs: number }) => {
  serveOperation(app, operations.getDashboard, async ({ query, caller }) => {
    const date = query.date ?? utcDay(Date.now());
    const { accountId, email } = caller;
    const ask = (service: string, answer: Promise<string>) =>
      answer.catch((error: unknown) => {
        if (error instanceof AppError && ["timeout", "unavailable"].includes(error.code)) {
          throw new AppError("unavailable", "dashboard unavailable", `${service} did not answer`);
        }
        throw error;
      });
    const [body, nutrition, workouts, trend] = await Promise.all([
      ask("body-metrics", bus.requestJson(bodyMetricsBus.dashboard, { accountId, date }, { timeoutMs })),
      ask("nutrition", bus.requestJson(nutritionBus.dayTotal, { accountId, email, date }, { timeoutMs })),
      ask("workouts", bus.requestJson(workoutsBus.weekTotals, { accountId, date }, { timeoutMs })),
      bus.requestJson(insightsBus.trend, { accountId, date }, { timeoutMs }).catch((error: unknown) => {
        if (error instanceof AppError && ["timeout", "unavailable"].includes(error.code)) return null;
        throw error;
      }),
    ]);
    return new JsonText(dashboardJson({ body, nutrition, workouts, trend }));
  });
};
