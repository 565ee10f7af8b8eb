import { bodyMetricsBus, nutritionBus } from "@fit/contracts";
import type { Bus } from "@fit/bus";
import { targetsGrounding, weightGrounding, type Grounding } from "../domain/grounding.ts";

/** A question that fails or misses its deadline gives `undefined`: the coach answers without it and says so. */
const settle = <T>(answer: Promise<T>): Promise<T | undefined> => answer.catch(() => undefined);

/**
 * The caller's targets, weight and the day's food, asked of body-metrics and nutrition in parallel. The
 * account id comes from the gateway's assertion, never from the model (read-only, docs/security.md#24-the-coach).
 */
export const readGrounding = async (bus: Bus, { accountId, email, date }: { accountId: string; email: string; date: string }, timeoutMs: number): Promise<Grounding> => {
  const options = { timeoutMs };
  const [weight, targets, total, items] = await Promise.all([
    settle(bus.request(bodyMetricsBus.weightSummary, { accountId, date }, options)),
    settle(bus.request(bodyMetricsBus.targets, { accountId }, options)),
    settle(bus.request(nutritionBus.dayTotal, { accountId, email, date }, options)),
    settle(bus.request(nutritionBus.dayItems, { accountId, date }, options)),
  ]);
  const missing = [
    ...(targets === undefined ? ["targets"] : []),
    ...(weight === undefined ? ["weight"] : []),
    ...(total === undefined || items === undefined ? ["food log for the day"] : []),
  ];
  return {
    date,
    targets: targets === undefined ? null : targetsGrounding(targets),
    weight: weight === undefined ? null : weightGrounding(weight),
    intake: total === undefined || items === undefined ? null : { kcal: total?.kcal ?? 0, proteinG: total?.proteinG ?? 0, items },
    missing,
  };
};

/** The latest weight for an energy estimate; a typical adult's when unknown or unreadable. */
export const readWeightKg = async (bus: Bus, accountId: string, date: string, timeoutMs: number): Promise<{ kg: number; known: boolean }> => {
  const summary = await settle(bus.request(bodyMetricsBus.weightSummary, { accountId, date }, { timeoutMs }));
  return summary ? { kg: summary.latestKg, known: true } : { kg: 70, known: false };
};
