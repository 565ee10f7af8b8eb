// The transactional outbox reader every service shares. A service inserts OutboxEvent rows in the same
// transaction as its change; a relay calls claimBatch() to hand them to the bus and mark them sent.
// SQL is raw (not the generated model API) so this package works with any service's client.
import type { OutboxRow, OutboxSource as RelaySource } from "@fit/bus";
import type { RawSqlClient, TransactionalClient } from "./client.ts";

export type { OutboxRow };

/**
 * What the relay reads (claimBatch claims oldest first with FOR UPDATE SKIP LOCKED and marks rows sent only when
 * send resolves; a throw increments attempts), plus housekeeping.
 */
export interface OutboxSource extends RelaySource {
  /** Deletes sent rows older than `olderThanMs`. */
  prune(olderThanMs: number): Promise<number>;
}

export interface OutboxOptions {
  /**
   * Longest a claim transaction (including send) may stay open, in ms (default 30 000; Prisma's own default,
   * 5 000, is short for a publish that waits for acknowledgements). Past it Prisma rolls back and the rows
   * are claimed again later, which the consumers' idempotence makes harmless.
   */
  transactionTimeoutMs?: number;
  /** Longest to wait for a transaction to start, in ms (default 10 000). */
  maxWaitMs?: number;
}

// created_at then id: a stable order, so a retried batch goes out in the order it first did.
const claimSql = `SELECT id::text AS id, subject, payload FROM outbox_event
  WHERE sent_at IS NULL ORDER BY created_at, id LIMIT $1 FOR UPDATE SKIP LOCKED`;

const dueSql = "SELECT EXISTS (SELECT 1 FROM outbox_event WHERE sent_at IS NULL) AS due";

export function createOutboxSource(client: TransactionalClient, options: OutboxOptions = {}): OutboxSource {
  const txOptions = { timeout: options.transactionTimeoutMs ?? 30_000, maxWait: options.maxWaitMs ?? 10_000 };
  return {
    async claimBatch(limit, send) {
      if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer, got ${limit}`);
      // Most passes find nothing: one plain read then, rather than a transaction of three statements.
      const [{ due }] = await client.$queryRawUnsafe<[{ due: boolean }]>(dueSql);
      if (!due) return 0;
      // A failed send must still commit the attempts count, so the error leaves the transaction as a value.
      const outcome = await client.$transaction(async (tx) => {
        const rows = await tx.$queryRawUnsafe<OutboxRow[]>(claimSql, limit);
        if (rows.length === 0) return { claimed: 0 };
        const ids = rows.map((row) => row.id);
        try {
          await send(rows);
        } catch (error) {
          await tx.$executeRawUnsafe(`UPDATE outbox_event SET attempts = attempts + 1 WHERE id IN (${uuidList(ids)})`, ...ids);
          return { claimed: rows.length, error };
        }
        await tx.$executeRawUnsafe(`UPDATE outbox_event SET sent_at = now() WHERE id IN (${uuidList(ids)})`, ...ids);
        return { claimed: rows.length };
      }, txOptions);
      if ("error" in outcome) throw outcome.error;
      return outcome.claimed;
    },

    async pending() {
      return count(client, "SELECT count(*)::int AS n FROM outbox_event WHERE sent_at IS NULL");
    },

    async prune(olderThanMs) {
      if (!(olderThanMs >= 0)) throw new RangeError(`olderThanMs must be >= 0, got ${olderThanMs}`);
      // The database's clock on both sides of the comparison, as sent_at was set from it.
      return client.$executeRawUnsafe(
        `DELETE FROM outbox_event WHERE sent_at < now() - make_interval(secs => $1::float8 / 1000)`,
        olderThanMs,
      );
    },
  };
}

function uuidList(ids: string[]): string {
  return ids.map((_, i) => `$${i + 1}::uuid`).join(", ");
}

async function count(client: RawSqlClient, sql: string): Promise<number> {
  const rows = await client.$queryRawUnsafe<{ n: number }[]>(sql);
  return Number(rows[0]?.n ?? 0);
}

/**
 * Deletes the outbox rows about an account (every event names it as `data.accountId`), sent or not: part of
 * deleting the account, in the caller's transaction. A row the relay holds is waited for, then deleted.
 */
export const deleteAccountEvents = (client: RawSqlClient, accountId: string) =>
  client.$executeRawUnsafe("DELETE FROM outbox_event WHERE payload -> 'data' ->> 'accountId' = $1", accountId);
