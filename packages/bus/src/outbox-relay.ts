import type { EventEnvelope } from "@fit/contracts";
import { context } from "@opentelemetry/api";
import { extractTrace } from "./trace.ts";
import { DUPLICATE_WINDOW_MS } from "./event-codec.ts";
import type { Bus, Logger, OutboxRow, OutboxSource } from "./types.ts";

export interface OutboxRelayOptions {
  bus: Pick<Bus, "publish">;
  source: OutboxSource;
  logger: Logger;
  /** Pause after a pass that found rows but not a full batch, and the first once the outbox is empty. Default 200. */
  intervalMs?: number;
  /**
   * Ceiling of the pause while passes find nothing: it doubles from intervalMs after each empty pass. Default
   * 10 × intervalMs. Writes kick their relay, so the poll only finds what no kick announced (a row of a replica
   * that stopped before its pass); an idle service polling every 200 ms spent ~5 ms of CPU a second on it
   * (docs/decisions/0046-idle-outbox-poll-backs-off.md).
   */
  idleIntervalMs?: number;
  batchSize?: number;
  /**
   * How long a kick waits for more writes before the pass runs, so that one pass carries them all. Default 20:
   * at one write at a time a pass per write cost body-metrics as much CPU as the write itself, and ran beside
   * the next request (docs/decisions/0045-outbox-kicks-coalesced.md).
   */
  coalesceMs?: number;
  /** Ceiling of the back-off after failures; with the source's lease it must stay inside the duplicate window. */
  maxBackoffMs?: number;
  /**
   * Rows published at once, each window's acks awaited together. Default 32: one at a time, each awaiting its ack,
   * the relay published ~110 events a second while 50 connections wrote ~1 500 weigh-ins a second on the same core,
   * and fell further behind for as long as the load lasted (docs/decisions/0089-relay-publishes-in-windows.md).
   */
  inFlight?: number;
  /**
   * Begin as if the outbox had been found empty: the first pass comes after idleIntervalMs, unless a kick comes
   * first. Default false. A service starts its relay so, and its first claim is not part of the start
   * (docs/performance.md, "Embedded start").
   */
  startIdle?: boolean;
}

export interface OutboxRelay {
  /** Run a pass now (call after committing a write, so its events flow without waiting for the next poll). */
  kick(): void;
  /** Finish the pass in progress and stop. */
  stop(): Promise<void>;
}

/**
 * Moves committed outbox rows to the bus (docs/decisions/0006-transactional-outbox.md,
 * docs/decisions/0033-outbox-lease-reconcile-lock-readiness.md). Each pass claims rows in a committed statement,
 * publishes them in order, a window at a time, each row awaiting the stream's ack with Nats-Msg-Id = the row id,
 * and then settles the claim: acknowledged rows are marked sent, so only a row whose ack was lost (a timeout, or a
 * failed settle) is ever sent twice, and that second send comes within a back-off or a lease, inside the
 * duplicate window.
 */
export const startOutboxRelay = (options: OutboxRelayOptions): OutboxRelay => {
  const { bus, source, logger, intervalMs = 200, batchSize = 100, coalesceMs = 20, maxBackoffMs = 5_000, inFlight = 32, startIdle = false } = options;
  const idleIntervalMs = options.idleIntervalMs ?? intervalMs * 10;
  if (maxBackoffMs + source.leaseMs >= DUPLICATE_WINDOW_MS) {
    throw new RangeError(`back-off ${maxBackoffMs} ms plus lease ${source.leaseMs} ms must stay inside the ${DUPLICATE_WINDOW_MS} ms duplicate window`);
  }
  let stopped = false;
  let kicked = false;
  let failures = 0;
  let idlePause = intervalMs;
  let wake: (() => void) | null = null;
  let coalescing: NodeJS.Timeout | undefined;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        wake = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      wake = done;
    });

  /**
   * Publishes a claim in order, `inFlight` rows at a time without waiting for each one's ack (nats.js writes a
   * window in one go), until a window has a failure; resolves what became of each row: acknowledged rows are sent,
   * a window's failed rows failed, the rows after it untried (docs/decisions/0089-relay-publishes-in-windows.md).
   */
  const send = async (rows: OutboxRow[]) => {
    const claimedAt = Date.now();
    const sent: string[] = [];
    for (let start = 0; start < rows.length; start += inFlight) {
      // A publish begun in the first half of the lease ends (the bus's publish timeout) before another relay
      // may claim the row, so two relays never publish it at once.
      if (Date.now() - claimedAt > source.leaseMs / 2) break;
      const window = rows.slice(start, start + inFlight);
      // Each published inside the trace of the write that made the row, so its consumers continue that trace.
      const results = await Promise.allSettled(
        window.map((row) => context.with(extractTrace(row.headers ?? {}), () => bus.publish(row.subject, row.payload as EventEnvelope))),
      );
      const failed = window.filter((_, i) => results[i]!.status === "rejected");
      sent.push(...window.filter((_, i) => results[i]!.status === "fulfilled").map((row) => row.id));
      const rejected = results.find((result) => result.status === "rejected");
      if (rejected) {
        const error: unknown = rejected.reason;
        logger.warn({ err: error, outboxIds: failed.map((row) => row.id), subjects: [...new Set(failed.map((row) => row.subject))] }, "outbox rows not published");
        return { outcome: { sent, failed: failed.map((row) => row.id), untried: rows.slice(start + inFlight).map((row) => row.id) }, error };
      }
    }
    return { outcome: { sent, failed: [], untried: rows.slice(sent.length).map((row) => row.id) } };
  };

  const pass = async () => {
    const rows = await source.claim(batchSize);
    if (rows.length === 0) return 0;
    const result = await send(rows);
    await source.settle(result.outcome);
    if ("error" in result) throw result.error;
    return rows.length;
  };

  const loop = (async () => {
    if (startIdle) await sleep(idleIntervalMs);
    while (!stopped) {
      kicked = false;
      let delay: number;
      try {
        const claimed = await pass();
        failures = 0;
        // A backlog: keep going. Nothing found: wait longer each time, up to idleIntervalMs.
        delay = claimed >= batchSize ? 0 : claimed > 0 ? intervalMs : idlePause;
        idlePause = claimed > 0 ? intervalMs : Math.min(idlePause * 2, idleIntervalMs);
      } catch (err) {
        failures++;
        delay = Math.min(intervalMs * 2 ** failures, maxBackoffMs);
        logger.error({ err, failures, retryInMs: delay }, "outbox relay pass failed; rows stay pending");
      }
      // A kick during the pass may be for a row committed after the claim, so look again soon.
      if (!stopped) await sleep(kicked && failures === 0 ? Math.min(delay, coalesceMs) : delay);
    }
  })();

  return {
    kick() {
      kicked = true;
      // While backing off, a kick must not turn every write into another attempt against a failing bus.
      if (failures === 0 && coalescing === undefined) {
        coalescing = setTimeout(() => {
          coalescing = undefined;
          wake?.();
        }, coalesceMs);
      }
    },
    async stop() {
      stopped = true;
      clearTimeout(coalescing);
      wake?.();
      await loop;
    },
  };
};
