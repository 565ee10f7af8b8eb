// The transactional outbox every service shares. A service writes OutboxEvent rows atomically with its change
// (changeWithEvent, or in the change's transaction); a relay claims them, publishes them, then settles the
// claim. SQL is raw (not the generated model API) so this package works with any service's tables.
import { empty, join, raw, sqltag as sql, type Sql } from "@prisma/client/runtime/client";
import { DUPLICATE_WINDOW_MS, type OutboxRow, type OutboxSource as RelaySource } from "@fit/bus";
import type { RawSqlClient } from "./client.ts";
import { internalsOf, type Database } from "./database.ts";

export type { OutboxRow };

/** What the relay reads, plus housekeeping. */
export interface OutboxSource extends RelaySource {
  /** Deletes sent rows older than `olderThanMs`. */
  prune(olderThanMs: number): Promise<number>;
  /** Unsent rows and the age of the oldest (0 when there is none), for the backlog metrics. */
  backlog(): Promise<{ pending: number; oldestAgeMs: number }>;
}

/**
 * An eighth of the duplicate window (15 s): a row claimed again after a relay died is published again (same
 * Nats-Msg-Id) about a lease after the first copy, well inside the window that drops the copy; and the rows a
 * killed relay held wait no longer than that for its successor.
 */
const OUTBOX_LEASE_MS = DUPLICATE_WINDOW_MS / 8;

// One statement, committed on its own: no row stays locked while the relay talks to the bus. created_at then
// id: a stable order, so a row given back goes out before the rows written after it. Exported for the test of its
// plan: it must read outbox_event_pending_idx in order and stop at the limit.
export const claimSql = `WITH claimed AS (
    UPDATE outbox_event SET claimed_at = now() WHERE id IN (
      SELECT id FROM outbox_event
      WHERE sent_at IS NULL AND (claimed_at IS NULL OR claimed_at < now() - make_interval(secs => $2::float8 / 1000))
      ORDER BY created_at, id LIMIT $1 FOR UPDATE SKIP LOCKED)
    RETURNING id, subject, payload, headers, created_at)
  SELECT id::text AS id, subject, payload, headers FROM claimed ORDER BY created_at, id`;

// Only rows still claimed: a row deleted meanwhile (its account was) stays deleted. One array in the WHERE, so
// the primary key serves it in a plain index scan (an OR of three needs a bitmap). Exported for the test of its plan.
export const settleSql = `UPDATE outbox_event SET claimed_at = NULL,
    sent_at = CASE WHEN id = ANY($1::uuid[]) THEN now() END,
    attempts = attempts + CASE WHEN id = ANY($2::uuid[]) THEN 1 ELSE 0 END
  WHERE id = ANY($1::uuid[] || $2::uuid[] || $3::uuid[])`;

/**
 * The outbox of `db`, read on the relay's own connection (see DatabaseInternals.outbox): plain SQL outside
 * Prisma, so a claim never waits for the pool the requests use.
 */
export function createOutboxSource(db: Database): OutboxSource {
  const { outbox } = internalsOf(db);
  return {
    leaseMs: OUTBOX_LEASE_MS,

    async claim(limit) {
      if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer, got ${limit}`);
      return outbox.query<OutboxRow>(claimSql, [limit, OUTBOX_LEASE_MS]);
    },

    async settle({ sent, failed, untried }) {
      if (sent.length + failed.length + untried.length === 0) return;
      await outbox.query(settleSql, [sent, failed, untried]);
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
 * deleting the account, in the caller's transaction. A row the relay has claimed may still be published once.
 */
export const deleteAccountEvents = (client: RawSqlClient, accountId: string) =>
  client.$executeRawUnsafe("DELETE FROM outbox_event WHERE payload -> 'data' ->> 'accountId' = $1", accountId);
