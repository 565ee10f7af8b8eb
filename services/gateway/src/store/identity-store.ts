import { prismaAdapter } from "better-auth/adapters/prisma";
import { createOutboxSource, ping } from "@fit/db";
import { accountStore } from "./account-store.ts";
import { PrismaClient } from "./generated/client.ts";
import type { PrismaClientOptionsWithAdapter } from "./generated/internal/prismaNamespace.ts";

/** What the gateway needs of an API key row on every request. */
export interface ApiKeyRow {
  id: string;
  enabled: boolean | null;
  expiresAt: Date | null;
  remaining: number | null;
  refillAmount: number | null;
  permissions: string | null;
  accountId: string;
  email: string;
}

/**
 * The identity schema: better-auth reads and writes it through its Prisma adapter (sign-in, sessions, keys);
 * the per-request credential check is this store's own statement.
 */
export const createIdentityStore = (db: Pick<PrismaClientOptionsWithAdapter, "adapter">) => {
  const prisma = new PrismaClient({ adapter: db.adapter });
  return {
    /** better-auth's view of the schema. */
    authDatabase: prismaAdapter(prisma, { provider: "postgresql" }),
    /**
     * The API key behind a hash, with its account: one plain statement, because it runs on every request
     * (a model query with a relation costs about four times the CPU, measured in bench/).
     */
    async findApiKey(hash: string): Promise<ApiKeyRow | null> {
      const rows = await prisma.$queryRaw<ApiKeyRow[]>`
        SELECT k.id::text AS id, k.enabled, k.expires_at AS "expiresAt", k.remaining, k.refill_amount AS "refillAmount", k.permissions,
               u.id::text AS "accountId", u.email
        FROM api_key k JOIN "user" u ON u.id = k.reference_id
        WHERE k.key = ${hash}`;
      return rows[0] ?? null;
    },
    /**
     * Leaves only the newest magic link of an email usable: asking for a link again retires the older ones.
     * Verification rows of other kinds hold no JSON object, hence the guard before the cast.
     */
    async retireOlderMagicLinks(email: string): Promise<void> {
      await prisma.$executeRaw`
        WITH links AS (
          SELECT id, created_at FROM verification
          WHERE lower(CASE WHEN value LIKE '{%' THEN value::jsonb ->> 'email' END) = lower(${email}))
        DELETE FROM verification WHERE id IN (
          SELECT id FROM links ORDER BY created_at DESC, id DESC OFFSET 1)`;
    },
    account: accountStore(prisma),
    /** Carries `identity.account.deleted` to the bus (buildService starts its relay). */
    outbox: createOutboxSource(prisma),
    ping: () => ping(prisma),
    close: () => prisma.$disconnect(),
  };
};
export type IdentityStore = ReturnType<typeof createIdentityStore>;
