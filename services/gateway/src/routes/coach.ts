import { AppError, coachBus, operations, utcDay } from "@fit/contracts";
import type { Bus } from "@fit/bus";
import { serveOperation, type HttpApp } from "@fit/service-kit";

/**
 * The coach has no HTTP face: the gateway asks it over the bus, where any of its replicas answers (queue group
 * `coach`). `timeoutMs` covers the model's own deadline and one retry.
 */
export const coachRoutes = (app: HttpApp, { bus, timeoutMs }: { bus: Bus; timeoutMs: number }) => {
  serveOperation(app, operations.askCoach, async ({ body, query, caller }) => {
    if (body.date && query.date && body.date !== query.date) {
      throw new AppError("validation", "date in the query and in the body differ", `${query.date} ≠ ${body.date}`);
    }
    const date = body.date ?? query.date ?? utcDay(Date.now());
    return bus.request(coachBus.ask, { accountId: caller.accountId, date, messages: body.messages }, { timeoutMs });
  });

  serveOperation(app, operations.coachUsage, ({ caller }) => bus.request(coachBus.usage, { accountId: caller.accountId }, { timeoutMs: 5000 }));
};
