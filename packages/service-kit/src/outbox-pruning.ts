import { DUPLICATE_WINDOW_MS } from "@fit/bus";
import type { IdempotencyKeys, OutboxSource } from "@fit/db";

const HOUR_MS = 3_600_000;

interface PruneLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * A minute after start, so the first pass is not part of the start (docs/performance.md, "Embedded start"), and
 * every hour after it.
 */
const FIRST_PASS_AFTER_MS = 60_000;

interface PruneSchedule {
  /** When the first pass runs; 0 runs it at once. */
  firstAfterMs?: number;
}

/** Runs `prune` `firstAfterMs` after start and every hour; a failed pass is logged and tried again at the next. */
export const pruneHourly = (prune: () => Promise<number>, what: string, logger: PruneLogger, { firstAfterMs = FIRST_PASS_AFTER_MS }: PruneSchedule = {}) => {
  const pass = () =>
    prune().then(
      (deleted) => {
        if (deleted > 0) logger.info({ deleted }, `${what} pruned`);
      },
      (error: unknown) => logger.warn({ err: error }, `pruning ${what} failed`),
    );
  let running: Promise<void> | undefined;
  let hourly: NodeJS.Timeout | undefined;
  const begin = () => {
    running = pass();
    hourly = setInterval(() => {
      running = pass();
    }, HOUR_MS).unref();
  };
  let first: NodeJS.Timeout | undefined;
  if (firstAfterMs > 0) first = setTimeout(begin, firstAfterMs).unref();
  else begin();
  return {
    async stop() {
      clearTimeout(first);
      clearInterval(hourly);
      await running;
    },
  };
};

/**
 * Sent outbox rows are kept for `retentionMs` (to inspect what a service published, or to republish it by
 * hand) and then deleted, a minute after start and every hour, so the table does not grow with every write forever.
 * Never for less than the stream's duplicate window: while the stream still drops a second copy of an id, the
 * row that id came from can be looked up. Unsent rows are never touched.
 */
export const startOutboxPruning = (outbox: Pick<OutboxSource, "prune">, retentionMs: number, logger: PruneLogger, schedule?: PruneSchedule) => {
  const keepMs = Math.max(retentionMs, DUPLICATE_WINDOW_MS);
  return pruneHourly(() => outbox.prune(keepMs), "sent outbox rows", logger, schedule);
};

/** Idempotency keys past their 24 h are deleted with the same hourly housekeeping (docs/decisions/0062-idempotency-keys.md). */
export const startIdempotencyKeyPruning = (keys: Pick<IdempotencyKeys, "prune">, logger: PruneLogger, schedule?: PruneSchedule) =>
  pruneHourly(() => keys.prune(), "expired idempotency keys", logger, schedule);
