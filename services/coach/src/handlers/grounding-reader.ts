import { bodyMetricsBus, insightsBus, nutritionBus } from "@fit/contracts";
import type { Bus } from "@fit/bus";
import { intakeGrounding, progressGrounding, targetsGrounding, weightGrounding, type Grounding } from "../domain/grounding.ts";

/** A question that fails or misses its deadline gives `undefined`: the coach answers without it and says so. */
const settle = <T>(answer: Promise<T>): Promise<T | undefined> => answer.catch(() => undefined);

/**
 * The caller's targets, weight, trend and expenditure, and the day's food: one question each to body-metrics,
 * insights and nutrition, in parallel (the day's totals are summed here from its items, so nutrition reads one table). The account id
 * comes from the gateway's assertion, never from the model (read-only, docs/security.md#24-the-coach).
 */
export const readGrounding = async (bus: Bus, { accountId, date }: { accountId: string; date: string }, timeoutMs: number): Promise<Grounding> => {
  const options = { timeoutMs };
  const [overview, insights, items] = await Promise.all([
    settle(bus.request(bodyMetricsBus.overview, { accountId, date }, options)),
    settle(bus.request(insightsBus.insights, { accountId, date }, options)),
    settle(bus.request(nutritionBus.dayItems, { accountId, date }, options)),
  ]);
  const missing = [
    ...(overview === undefined ? ["targets", "weight"] : []),
    ...(insights === undefined ? ["trend and expenditure"] : []),
    ...(items === undefined ? ["food log for the day"] : []),
  ];
  return {
    date,
    targets: overview === undefined ? null : targetsGrounding(overview.targets),
    weight: overview === undefined ? null : weightGrounding(overview.weight),
    progress: insights === undefined ? null : progressGrounding(insights),
    intake: items === undefined ? null : intakeGrounding(items),
    missing,
  };
};

/** The latest weight for an energy estimate; a typical adult's when unknown or unreadable. */
export const readWeightKg = async (bus: Bus, accountId: string, date: string, timeoutMs: number): Promise<{ kg: number; known: boolean }> => {
  const summary = await settle(bus.request(bodyMetricsBus.weightSummary, { accountId, date }, { timeoutMs }));
  return summary ? { kg: summary.latestKg, known: true } : { kg: 70, known: false };
};
