import { DUPLICATE_WINDOW_MS } from "@fit/bus";
import type { OutboxSource } from "@fit/db";

const HOUR_MS = 3_600_000;

interface PruneLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * Sent outbox rows are kept for `retentionMs` (to inspect what a service published, or to republish it by
 * hand) and then deleted, at start and every hour, so the table does not grow with every write forever.
 * Never for less than the stream's duplicate window: while the stream still drops a second copy of an id, the
 * row that id came from can be looked up. Unsent rows are never touched. A failed pass is logged and tried
 * again at the next.
 */
export const startOutboxPruning = (outbox: Pick<OutboxSource, "prune">, retentionMs: number, logger: PruneLogger) => {
  const keepMs = Math.max(retentionMs, DUPLICATE_WINDOW_MS);
  const prune = () =>
    outbox.prune(keepMs).then(
      (deleted) => {
        if (deleted > 0) logger.info({ deleted }, "sent outbox rows pruned");
      },
      (error: unknown) => logger.warn({ err: error }, "outbox pruning failed"),
    );
  let pass = prune();
  const timer = setInterval(() => {
    pass = prune();
  }, HOUR_MS).unref();
  return {
    async stop() {
      clearInterval(timer);
      await pass;
    },
  };
};
