import { ping, type Database } from "@fit/db";
import { PrismaClient, type Prisma } from "./generated/client.ts";

const DAY_MS = 86_400_000;

/** The only place that talks to the database. Every query is scoped by account. */
export const createStore = (db: Database) => {
  const prisma = new PrismaClient({ adapter: db.adapter });

  return {
    ping: () => ping(prisma),
    close: () => prisma.$disconnect(),

    async usage(accountId: string, day: string) {
      const row = await prisma.dailyUsage.findUnique({ where: { accountId_day: { accountId, day } } });
      return { calls: row?.calls ?? 0, tokens: row?.tokens ?? 0 };
    },

    /** Counts a call and its tokens in one statement, so concurrent calls of one account never lose a count. */
    async recordUsage(accountId: string, day: string, tokens: number) {
      await prisma.$executeRaw`
        INSERT INTO daily_usage (account_id, day, calls, tokens, updated_at)
        VALUES (${accountId}::uuid, ${day}, 1, ${tokens}, now())
        ON CONFLICT (account_id, day) DO UPDATE
          SET calls = daily_usage.calls + 1, tokens = daily_usage.tokens + EXCLUDED.tokens, updated_at = now()`;
    },

    /** A model's answer cached under `key` less than a day ago, or null. */
    async cached(accountId: string, key: string, now = Date.now()): Promise<unknown> {
      const row = await prisma.estimateCache.findUnique({ where: { accountId_key: { accountId, key } } });
      return row && row.createdAt.getTime() > now - DAY_MS ? row.value : null;
    },

    async cache(accountId: string, key: string, value: Prisma.InputJsonValue) {
      await prisma.estimateCache.upsert({
        where: { accountId_key: { accountId, key } },
        create: { accountId, key, value },
        update: { value, createdAt: new Date() },
      });
    },

    /** Drops what no call can reuse any more: cache entries over a day old, usage of past days beyond a month. */
    async prune(now = Date.now()) {
      await prisma.estimateCache.deleteMany({ where: { createdAt: { lt: new Date(now - DAY_MS) } } });
      await prisma.dailyUsage.deleteMany({ where: { updatedAt: { lt: new Date(now - 31 * DAY_MS) } } });
    },
  };
};

export type Store = ReturnType<typeof createStore>;
