import { DUPLICATE_WINDOW_MS } from "@fit/bus";
import type { IdempotencyKeys, OutboxSource } from "@fit/db";

const HOUR_MS = 3_600_000;

interface PruneLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** Runs `prune` at start and every hour; a failed pass is logged and tried again at the next. */
export const pruneHourly = (prune: () => Promise<number>, what: string, logger: PruneLogger) => {
  const pass = () =>
    prune().then(
      (deleted) => {
        if (deleted > 0) logger.info({ deleted }, `${what} pruned`);
      },
      (error: unknown) => logger.warn({ err: error }, `pruning ${what} failed`),
    );
  let running = pass();
  const timer = setInterval(() => {
    running = pass();
  }, HOUR_MS).unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
};

/**
 * Sent outbox rows are kept for `retentionMs` (to inspect what a service published, or to republish it by
 * hand) and then deleted, at start and every hour, so the table does not grow with every write forever.
 * Never for less than the stream's duplicate window: while the stream still drops a second copy of an id, the
 * row that id came from can be looked up. Unsent rows are never touched.
 */
export const startOutboxPruning = (outbox: Pick<OutboxSource, "prune">, retentionMs: number, logger: PruneLogger) => {
  const keepMs = Math.max(retentionMs, DUPLICATE_WINDOW_MS);
  return pruneHourly(() => outbox.prune(keepMs), "sent outbox rows", logger);
};

/** Idempotency keys past their 24 h are deleted with the same hourly housekeeping (docs/decisions/0062-idempotency-keys.md). */
export const startIdempotencyKeyPruning = (keys: Pick<IdempotencyKeys, "prune">, logger: PruneLogger) =>
  pruneHourly(() => keys.prune(), "expired idempotency keys", logger);
