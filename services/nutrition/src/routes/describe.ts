import { AppError, coachBus, operations, utcDay } from "@fit/contracts";
import { serveOperation, type ServiceContext } from "@fit/service-kit";
import { describeLogged, itemsFromEstimates } from "../domain/described-meal.ts";
import type { Store } from "../store/store.ts";

/**
 * Text → the coach's estimate (over the bus, waiting `coachTimeoutMs`) → logged through the normal write path,
 * each item with its range and source (docs/decisions/0016-estimates-carry-range-and-provenance.md); or, for the
 * estimate route, handed back unlogged, for the person to correct before logging.
 */
export const describeRoutes = ({ app, store, relay, bus }: ServiceContext<Store>, { coachTimeoutMs }: { coachTimeoutMs: number }) => {
  const estimate = async (accountId: string, text: string) => {
    const estimates = await bus.request(coachBus.estimateFoods, { accountId, text }, { timeoutMs: coachTimeoutMs });
    if (estimates.items.length === 0) {
      throw new AppError("validation", "no food recognised in text", "name the foods, e.g. \"two eggs and a slice of toast\"");
    }
    return estimates;
  };

  serveOperation(app, operations.estimateFood, ({ body, caller }) => estimate(caller.accountId, body.text));

  serveOperation(app, operations.describeFood, async ({ body, caller, record }) => {
    const { accountId } = caller;
    const estimates = await estimate(accountId, body.text);
    const date = body.date ?? utcDay(Date.now());
    const answerOf = (items: Awaited<ReturnType<Store["addItems"]>>) => ({ items, unrecognized: estimates.unrecognized, reply: describeLogged(items, estimates.unrecognized) });
    const items = await store.addItems(itemsFromEstimates(estimates.items, { accountId, date, meal: body.meal ?? null }), (views) => record(answerOf(views)));
    relay.kick();
    return answerOf(items);
  });
};
