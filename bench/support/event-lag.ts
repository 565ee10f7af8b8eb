import type pg from "pg";
import { waitUntil } from "./database.ts";
import { watchEvents } from "./nats.ts";
import { fixed, table } from "./report.ts";
import { percentile } from "./stats.ts";

export interface LagOptions {
  gatewayUrl: string;
  key: string;
  accountId: string;
  date: string;
  namespace: string;
  writes: number;
}

/** Per write, ms from the moment the write was sent. */
interface Lag {
  reply: number;
  stored: number;
  received: number;
  applied: number;
}

const TIMEOUT_MS = 10_000;
/** Writes whose event or projection never showed up before the run stops (something is broken, not slow). */
const MAX_MISSED = 5;

/**
 * Sequential food writes through the gateway. For each: when its 200 came back; when its item.logged event was
 * stored in JetStream (the outbox relay's publish) and reached a durable consumer of our own (what any other
 * consumer would see); and when nutrition's projection had applied it, i.e. the pending_day row the write
 * inserted in its transaction was gone (polled every ms).
 */
export const measureEventLag = async (client: pg.Client, o: LagOptions) => {
  const events = await watchEvents(o.namespace, "NUTRITION", "nutrition.item.logged", (data) => (data as { itemId: string }).itemId);
  const lags: Lag[] = [];
  let missed = 0;
  try {
    for (let i = 0; i < o.writes && missed < MAX_MISSED; i++) {
      const start = performance.now();
      const res = await fetch(`${o.gatewayUrl}/api/nutrition/items`, {
        method: "POST",
        headers: { authorization: `Bearer ${o.key}`, "content-type": "application/json" },
        body: JSON.stringify({ date: o.date, name: `lag probe ${i}`, kcal: 95, proteinG: 0.5, meal: "snack" }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      const reply = performance.now() - start;
      if (!res.ok) throw new Error(`POST /api/nutrition/items answered ${res.status} ${await res.text()}`);
      const { id } = (await res.json()) as { id: string };
      const pendingGone = async () =>
        (await client.query("SELECT 1 FROM nutrition.pending_day WHERE account_id = $1 AND date = $2", [o.accountId, o.date])).rowCount === 0;
      const [arrival, appliedAfter] = await Promise.all([events.arrival(id, TIMEOUT_MS), waitUntil(pendingGone, TIMEOUT_MS, 1)]);
      if (!arrival || appliedAfter === null) {
        missed++;
        continue;
      }
      lags.push({ reply, stored: arrival.storedAt - start, received: arrival.receivedAt - start, applied: reply + appliedAfter });
    }
  } finally {
    await events.close();
  }
  const stat = (pick: (l: Lag) => number) => {
    const values = lags.map(pick);
    return { p50: percentile(values, 50), p99: percentile(values, 99), max: Math.max(...values) };
  };
  return {
    writes: o.writes,
    missed,
    reply: stat((l) => l.reply),
    stored: stat((l) => l.stored),
    received: stat((l) => l.received),
    applied: stat((l) => l.applied),
    appliedAfterReply: stat((l) => l.applied - l.reply),
  };
};

export type EventLag = Awaited<ReturnType<typeof measureEventLag>>;

export const lagTable = (lag: EventLag) =>
  table([
    ["from the write's start (ms)", "p50", "p99", "max"],
    ...([
      ["200 reply", lag.reply],
      ["event stored in JetStream (outbox relay)", lag.stored],
      ["event received by our durable consumer", lag.received],
      ["projection applied (pending_day row gone)", lag.applied],
      ["  same, counted from the 200 reply", lag.appliedAfterReply],
    ] as const).map(([what, s]) => [what, fixed(s.p50), fixed(s.p99), fixed(s.max)]),
  ]);
