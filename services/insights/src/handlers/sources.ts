import { bodyMetricsBus, nutritionBus, utcDay } from "@fit/contracts";
import type { Bus } from "@fit/bus";
import type { Store } from "../store/store.ts";

const SOURCE_TIMEOUT_MS = 5000;
const DAY_MS = 86_400_000;
/** How far back an account's history is copied in the first time the read model meets it: what insights read for a date up to nine months ago. */
const BACKFILL_DAYS = 400;
/** Days asked for at once while copying, so no answer outgrows a bus message (several weigh-ins a day for years). */
const BACKFILL_STEP_DAYS = 100;

/** The days [from, to] as nutrition sums them from its items now, whatever event came first. */
export const refreshIntakeDays = async (bus: Bus, store: Store, accountId: string, from: string, to: string) => {
  const { asOf, days } = await bus.request(nutritionBus.intakeDays, { accountId, from, to }, { timeoutMs: SOURCE_TIMEOUT_MS });
  await store.replaceIntakeDays(accountId, from, to, days, asOf);
  return days.length;
};

/** Answers asked for in a row while the account's weigh-in events keep changing days the answer may predate. */
const REFRESH_ATTEMPTS = 3;

/**
 * The readings in [from, to) as body-metrics holds them now. Days an event changed while the answer was on its way
 * keep what the events made them (`replaceReadings`), and the answer is asked for again to mend those too.
 */
export const refreshReadings = async (bus: Bus, store: Store, accountId: string, from: number, to: number) => {
  for (let attempt = 1; ; attempt++) {
    const askedAt = await store.clock();
    const readings = await bus.request(bodyMetricsBus.weightReadings, { accountId, from, to }, { timeoutMs: SOURCE_TIMEOUT_MS });
    const changedMeanwhile = await store.replaceReadings(accountId, from, to, readings, askedAt);
    if (changedMeanwhile === 0 || attempt === REFRESH_ATTEMPTS) return readings.length;
  }
};

/**
 * Back-fills under way in this process, by account: the requests and events that meet a new account at once wait
 * for one copy rather than each copying its history again, on the same rows (docs/decisions/0087-insights-weight-days.md).
 */
const copying = new Map<string, Promise<void>>();

/**
 * The account's last BACKFILL_DAYS copied in from body-metrics and nutrition, once: an account with history from
 * before the read model existed (or before it first heard of the account) gets its insights from that history, not
 * only from the events since. Events and reads call it first; once an account is recorded it is one lookup.
 *
 * The account is recorded before the copy, so a copy still under way when the account's rows are dropped (its
 * deletion) cannot record it afterwards; it is unrecorded again when the copy fails or finds no history, so the
 * next event or read tries again and a deleted account leaves nothing behind. An account found empty is remembered
 * by this process alone: a new account's every dashboard would otherwise copy 400 empty days again
 * (docs/performance.md), and its first event brings what it gains.
 */
export const ensureBackfilled = (bus: Bus, store: Store, accountId: string, now = Date.now()) => {
  let copy = copying.get(accountId);
  if (!copy) {
    copy = backfill(bus, store, accountId, now).finally(() => copying.delete(accountId));
    copying.set(accountId, copy);
  }
  return copy;
};

const backfill = async (bus: Bus, store: Store, accountId: string, now: number) => {
  if (await store.isBackfilled(accountId)) return;
  await store.markBackfilled(accountId);
  // Up to a day ahead of the clock: a reading may be logged that far ahead (ADR 0064).
  const end = now + 2 * DAY_MS;
  let found = 0;
  try {
    for (let to = end; to > end - BACKFILL_DAYS * DAY_MS; to -= BACKFILL_STEP_DAYS * DAY_MS) {
      const from = to - BACKFILL_STEP_DAYS * DAY_MS;
      found += await refreshReadings(bus, store, accountId, from, to);
      found += await refreshIntakeDays(bus, store, accountId, utcDay(from), utcDay(to - DAY_MS));
    }
  } finally {
    if (found === 0) await store.unmarkBackfilled(accountId);
  }
  // Reached only when the copy succeeded.
  store.rememberBackfilled(accountId);
};
