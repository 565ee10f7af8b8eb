// The transactional outbox every service shares. A service writes OutboxEvent rows atomically with its change
// (changeWithEvent, or in the change's transaction); a relay calls claimBatch() to hand them to the bus and mark
// them sent. SQL is raw (not the generated model API) so this package works with any service's tables.
import { empty, join, raw, sqltag as sql, type Sql } from "@prisma/client/runtime/client";
import type { OutboxRow, OutboxSource as RelaySource } from "@fit/bus";
import type { RawSqlClient } from "./client.ts";
import { internalsOf, type Database } from "./open.ts";

export type { OutboxRow };

/**
 * What the relay reads (claimBatch claims oldest first with FOR UPDATE SKIP LOCKED and marks rows sent only when
 * send resolves; a throw increments attempts), plus housekeeping.
 */
export interface OutboxSource extends RelaySource {
  /** Deletes sent rows older than `olderThanMs`. */
  prune(olderThanMs: number): Promise<number>;
  /** Unsent rows and the age of the oldest (0 when there is none), for the backlog metrics. */
  backlog(): Promise<{ pending: number; oldestAgeMs: number }>;
}

// created_at then id: a stable order, so a retried batch goes out in the order it first did.
const claimSql = `SELECT id::text AS id, subject, payload, headers FROM outbox_event
  WHERE sent_at IS NULL ORDER BY created_at, id LIMIT $1 FOR UPDATE SKIP LOCKED`;

const dueSql = "SELECT EXISTS (SELECT 1 FROM outbox_event WHERE sent_at IS NULL) AS due";

/**
 * The outbox of `db`, read on the relay's own connection (see DatabaseInternals.outbox): plain SQL, no Prisma
 * transaction, so a claim never waits for the pool the requests use.
 */
export function createOutboxSource(db: Database): OutboxSource {
  const { outbox } = internalsOf(db);
  return {
    async claimBatch(limit, send) {
      if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer, got ${limit}`);
      // Most passes find nothing: one plain read then, rather than a transaction of three statements.
      const [found] = await outbox.query<{ due: boolean }>(dueSql);
      if (!found?.due) return 0;
      // A failed send must still commit the attempts count, so the error leaves the transaction as a value.
      const outcome = await outbox.transaction(async (query) => {
        const rows = await query<OutboxRow>(claimSql, [limit]);
        if (rows.length === 0) return { claimed: 0 };
        const ids = rows.map((row) => row.id);
        try {
          await send(rows);
        } catch (error) {
          await query(`UPDATE outbox_event SET attempts = attempts + 1 WHERE id IN (${uuidList(ids)})`, ids);
          return { claimed: rows.length, error };
        }
        await query(`UPDATE outbox_event SET sent_at = now() WHERE id IN (${uuidList(ids)})`, ids);
        return { claimed: rows.length };
      });
      if ("error" in outcome) throw outcome.error;
      return outcome.claimed;
    },

    async pending() {
      const [row] = await outbox.query<{ n: number }>("SELECT count(*)::int AS n FROM outbox_event WHERE sent_at IS NULL");
      return Number(row?.n ?? 0);
    },

    async backlog() {
      const [row] = await outbox.query<{ pending: number; oldest_age_ms: number | null }>(
        "SELECT count(*)::int AS pending, (extract(epoch FROM now() - min(created_at)) * 1000)::float8 AS oldest_age_ms FROM outbox_event WHERE sent_at IS NULL",
      );
      return { pending: Number(row?.pending ?? 0), oldestAgeMs: Math.max(0, Number(row?.oldest_age_ms ?? 0)) };
    },

    async prune(olderThanMs) {
      if (!(olderThanMs >= 0)) throw new RangeError(`olderThanMs must be >= 0, got ${olderThanMs}`);
      // The database's clock on both sides of the comparison, as sent_at was set from it.
      const deleted = await outbox.query<{ id: string }>(
        "DELETE FROM outbox_event WHERE sent_at < now() - make_interval(secs => $1::float8 / 1000) RETURNING id",
        [olderThanMs],
      );
      return deleted.length;
    },
  };
}

function uuidList(ids: string[]): string {
  return ids.map((_, i) => `$${i + 1}::uuid`).join(", ");
}


/** An outbox row as `outboxRow(def, data)` from @fit/contracts builds it. */
export interface NewOutboxEvent {
  id: string;
  subject: string;
  payload: object;
  headers?: Record<string, string>;
}

/**
 * One statement that makes `change` (an INSERT, UPDATE or DELETE ending in RETURNING) and writes `event` to the
 * outbox only if `change` returned a row: atomic without a transaction, and one round trip instead of four
 * (BEGIN, change, event, COMMIT). `alongside` are further data-modifying statements, which may read the changed
 * rows as `changed`. Run it with the service client's `$queryRaw`; it answers `[{ changed }]`, the number of
 * rows `change` returned. Table names are unqualified: the connection's search_path (PostgreSQL) or `public`
 * (PGlite) places them.
 */
export const changeWithEvent = (change: Sql, event: NewOutboxEvent, ...alongside: Sql[]): Sql => {
  const more = alongside.length ? sql`${join(alongside.map((statement, i) => sql`${raw(`alongside_${i}`)} AS (${statement})`), ", ")},` : empty;
  return sql`WITH changed AS (${change}), ${more}
    event AS (
      INSERT INTO outbox_event (id, subject, payload, headers)
      SELECT ${event.id}::uuid, ${event.subject}, ${JSON.stringify(event.payload)}::jsonb, ${JSON.stringify(event.headers ?? {})}::jsonb
      WHERE EXISTS (SELECT 1 FROM changed)
    )
    SELECT count(*)::int AS changed FROM changed`;
};

/**
 * Deletes the outbox rows about an account (every event names it as `data.accountId`), sent or not: part of
 * deleting the account, in the caller's transaction. A row the relay holds is waited for, then deleted.
 */
export const deleteAccountEvents = (client: RawSqlClient, accountId: string) =>
  client.$executeRawUnsafe("DELETE FROM outbox_event WHERE payload -> 'data' ->> 'accountId' = $1", accountId);
