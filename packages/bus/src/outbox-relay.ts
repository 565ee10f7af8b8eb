import type { EventEnvelope } from "@fit/contracts";
import { context } from "@opentelemetry/api";
import { extractTrace } from "./trace.ts";
import type { Bus, Logger, OutboxRow, OutboxSource } from "./types.ts";

export interface OutboxRelayOptions {
  bus: Pick<Bus, "publish">;
  source: OutboxSource;
  logger: Logger;
  /** Pause between passes when the outbox is empty. Default 200. */
  intervalMs?: number;
  batchSize?: number;
  /** Ceiling of the back-off after failures; must stay well inside the stream's 2-minute duplicate window. */
  maxBackoffMs?: number;
}

export interface OutboxRelay {
  /** Run a pass now (call after committing a write, so its events flow without waiting for the next poll). */
  kick(): void;
  /** Finish the pass in progress and stop. */
  stop(): Promise<void>;
}

/**
 * Moves committed outbox rows to the bus (docs/decisions/0006-transactional-outbox.md). Rows are published one
 * by one, each awaiting the stream's ack, inside the source's claim, so a row is marked sent only once stored. If any publish fails the whole
 * claim stays unsent and is retried after a back-off; rows already published in it go again with the same
 * message id, which the stream's duplicate window drops.
 */
export const startOutboxRelay = (options: OutboxRelayOptions): OutboxRelay => {
  const { bus, source, logger, intervalMs = 200, batchSize = 100, maxBackoffMs = 5_000 } = options;
  let stopped = false;
  let kicked = false;
  let failures = 0;
  let wake: (() => void) | null = null;

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

  const send = async (rows: OutboxRow[]) => {
    for (const row of rows) {
      try {
        // Published inside the trace of the write that made the row, so its consumers continue that trace.
        await context.with(extractTrace(row.headers ?? {}), () => bus.publish(row.subject, row.payload as EventEnvelope));
      } catch (err) {
        logger.warn({ err, outboxId: row.id, subject: row.subject }, "outbox row not published");
        throw err;
      }
    }
  };

  const loop = (async () => {
    while (!stopped) {
      kicked = false;
      let delay = intervalMs;
      try {
        const claimed = await source.claimBatch(batchSize, send);
        failures = 0;
        if (claimed >= batchSize) delay = 0; // a backlog: keep going
      } catch (err) {
        failures++;
        delay = Math.min(intervalMs * 2 ** failures, maxBackoffMs);
        logger.error({ err, failures, retryInMs: delay }, "outbox relay pass failed; rows stay pending");
      }
      // A kick during the pass may be for a row committed after the claim, so look again at once.
      if (!stopped && !(kicked && failures === 0)) await sleep(delay);
    }
  })();

  return {
    kick() {
      kicked = true;
      // While backing off, a kick must not turn every write into another attempt against a failing bus.
      if (failures === 0) wake?.();
    },
    async stop() {
      stopped = true;
      wake?.();
      await loop;
    },
  };
};
