// Idempotency keys every service shares (docs/decisions/0062-idempotency-keys.md). A creating request's key is
// recorded with its answer by a statement that runs in the write's own transaction (or statement): either both
// commit or neither does, so a retry after a lost answer (the service killed after its commit) finds the key.
// SQL is raw (not the generated model API) so this package works with any service's tables.
import { sqltag as sql, type Sql } from "@prisma/client/runtime/client";
import type { RawSqlClient } from "./client.ts";
import type { Database } from "./database.ts";

/** How long a key is remembered: a retry within it gets the first answer; after it, the key is new again. */
const IDEMPOTENCY_KEY_TTL_MS = 24 * 3_600_000;

export interface IdempotencyClaim {
  accountId: string;
  key: string;
  /** What identifies the request (method, path, query, body): the same key with another request is refused. */
  requestHash: string;
}

export interface StoredAnswer {
  requestHash: string;
  status: number;
  /** The answer's JSON text, as it was sent. */
  answer: string;
  /** Older than IDEMPOTENCY_KEY_TTL_MS by the database's clock: to be forgotten, not answered. */
  expired: boolean;
}

/**
 * The statement recording `claim` with its answer. Run it with the write: when the key is already recorded it
 * fails (a unique violation), and the write it runs with is rolled back with it.
 */
export const recordAnswer = (claim: IdempotencyClaim, status: number, answer: string): Sql =>
  sql`INSERT INTO idempotency_key (account_id, key, request_hash, status, answer)
    VALUES (${claim.accountId}::uuid, ${claim.key}, ${claim.requestHash}, ${status}, ${answer})`;

const ttl = sql`make_interval(secs => ${IDEMPOTENCY_KEY_TTL_MS}::float8 / 1000)`;

/** The keys of `db`: looked up when a keyed write fails, and pruned by the service's housekeeping. */
export function createIdempotencyKeys(db: Database) {
  return {
    async find({ accountId, key }: Pick<IdempotencyClaim, "accountId" | "key">): Promise<StoredAnswer | null> {
      const [row] = await db.query<StoredAnswer>(sql`SELECT request_hash AS "requestHash", status, answer, created_at < now() - ${ttl} AS expired
        FROM idempotency_key WHERE account_id = ${accountId}::uuid AND key = ${key}`);
      return row ?? null;
    },

    /** Deletes the key if it has expired, so it can be recorded again. */
    async forgetExpired({ accountId, key }: Pick<IdempotencyClaim, "accountId" | "key">): Promise<void> {
      await db.query(sql`DELETE FROM idempotency_key WHERE account_id = ${accountId}::uuid AND key = ${key} AND created_at < now() - ${ttl}`);
    },

    /** Deletes every expired key; answers how many. */
    async prune(): Promise<number> {
      return (await db.query<{ key: string }>(sql`DELETE FROM idempotency_key WHERE created_at < now() - ${ttl} RETURNING key`)).length;
    },
  };
}

export type IdempotencyKeys = ReturnType<typeof createIdempotencyKeys>;

/** Deletes an account's keys and the answers they hold: part of deleting the account, in the caller's transaction. */
export const deleteAccountIdempotencyKeys = (client: RawSqlClient, accountId: string) =>
  client.$executeRawUnsafe("DELETE FROM idempotency_key WHERE account_id = $1::uuid", accountId);
