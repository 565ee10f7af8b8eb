import { setTimeout as sleep } from "node:timers/promises";
import { AppError, utcDay } from "@fit/contracts";
import { lazyInstruments } from "@fit/telemetry";
import type { Store } from "../store/store.ts";

const gates = new Set<{ load(): number }>();

// Calls running or waiting in this replica: what a HorizontalPodAutoscaler scales the coach on, since a coach
// waiting on the model uses little CPU (infra/README.md).
const instruments = lazyInstruments("@fit/coach", (meter) =>
  meter
    .createObservableGauge("fit.coach.calls.in_flight", { description: "Coach calls running or waiting for a slot in this replica", unit: "{call}" })
    .addCallback((result) => result.observe([...gates].reduce((sum, gate) => sum + gate.load(), 0))),
);

/**
 * At most `concurrency` calls run at once in this replica and `queue` more wait; past both the caller gets 429
 * at once, rather than a slow answer that would tie up the gateway. Another replica takes the next request.
 * Calls start at least `spacingMs` apart: each begins with reads from body-metrics and nutrition, and the slots
 * a model frees together would otherwise start a burst of them that the rest of the API waits behind
 * (docs/decisions/0054-coach-calls-start-spaced.md).
 */
export const createGate = ({ concurrency, queue, spacingMs }: { concurrency: number; queue: number; spacingMs: number }) => {
  let running = 0;
  let nextStartAt = 0;
  const waiting: (() => void)[] = [];
  gates.add({ load: () => running + waiting.length });
  instruments();
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };
  const startInTurn = async () => {
    const now = performance.now();
    const at = Math.max(now, nextStartAt);
    nextStartAt = at + spacingMs;
    if (at > now) await sleep(at - now);
  };
  return async <T>(work: () => Promise<T>): Promise<T> => {
    if (running >= concurrency) {
      if (waiting.length >= queue) throw new AppError("rate_limited", "the coach is busy, retry shortly", undefined, 1);
      await new Promise<void>((resolve) => waiting.push(resolve));
    } else running++;
    try {
      await startInTurn();
      return await work();
    } finally {
      release();
    }
  };
};

export interface Limits {
  callsPerDay: number;
  tokensPerDay: number;
}

const secondsToMidnight = (now: number) => Math.ceil((86_400_000 - (now % 86_400_000)) / 1000);

/**
 * Counts the call against the account's day and holds `reservedTokens` for it, or refuses it once the day's calls
 * are spent or the reservation does not fit (the counts restart at 00:00 UTC). A call counts when it starts,
 * whatever its outcome: a failed model call may still be billed.
 */
export const reserveCall = async (store: Store, accountId: string, limits: Limits, reservedTokens: number, now = Date.now()) => {
  if (!(await store.reserveCall(accountId, utcDay(now), limits, reservedTokens))) {
    throw new AppError("rate_limited", "daily coach quota reached", "see GET /api/coach/usage; it resets at 00:00 UTC", secondsToMidnight(now));
  }
};
