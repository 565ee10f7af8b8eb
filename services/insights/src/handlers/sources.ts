import { bodyMetricsBus, nutritionBus } from "@fit/contracts";
import type { Bus } from "@fit/bus";
import type { Store } from "../store/store.ts";

const SOURCE_TIMEOUT_MS = 5000;

/** The days [from, to] as nutrition sums them from its items now, whatever event came first. */
export const refreshIntakeDays = async (bus: Bus, store: Store, accountId: string, from: string, to: string) => {
  const days = await bus.request(nutritionBus.intakeDays, { accountId, from, to }, { timeoutMs: SOURCE_TIMEOUT_MS });
  await store.replaceIntakeDays(accountId, from, to, days);
};

/** The readings in [from, to) as body-metrics holds them now. */
export const refreshReadings = async (bus: Bus, store: Store, accountId: string, from: number, to: number) => {
  const readings = await bus.request(bodyMetricsBus.weightReadings, { accountId, from, to }, { timeoutMs: SOURCE_TIMEOUT_MS });
  await store.replaceReadings(accountId, from, to, readings);
};
