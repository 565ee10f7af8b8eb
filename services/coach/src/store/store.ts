import { ping, type Database } from "@fit/db";
import { accountData } from "./account-data.ts";
import { PrismaClient, type Prisma } from "./generated/client.ts";

const DAY_MS = 86_400_000;

/** The only place that talks to the database. Every query is scoped by account. */
export const createStore = (db: Database) => {
  const prisma = new PrismaClient({ adapter: db.adapter });

  return {
    ping: () => ping(prisma),
    close: () => prisma.$disconnect(),
    accountData: accountData(prisma),

    async usage(accountId: string, day: string) {
      const row = await prisma.dailyUsage.findUnique({ where: { accountId_day: { accountId, day } } });
      return { calls: row?.calls ?? 0, tokens: row?.tokens ?? 0 };
    },

    /**
     * Counts a call and holds `reservedTokens` of the day's tokens for it, in one statement: concurrent calls of one
     * account can neither slip past the limits together nor lose a count. False when refused: the day's calls are
     * spent, or the reservation does not fit in what is left of its tokens.
     */
    async reserveCall(accountId: string, day: string, limits: { callsPerDay: number; tokensPerDay: number }, reservedTokens = 0): Promise<boolean> {
      const counted = await prisma.$queryRaw<{ calls: number }[]>`
        INSERT INTO daily_usage (account_id, day, calls, tokens, updated_at)
        VALUES (${accountId}::uuid, ${day}, 1, ${reservedTokens}, now())
        ON CONFLICT (account_id, day) DO UPDATE
          SET calls = daily_usage.calls + 1, tokens = daily_usage.tokens + ${reservedTokens}, updated_at = now()
          WHERE daily_usage.calls < ${limits.callsPerDay} AND daily_usage.tokens < ${limits.tokensPerDay}
            AND daily_usage.tokens + ${reservedTokens} <= ${limits.tokensPerDay}
        RETURNING calls`;
      return counted.length > 0;
    },

    /** Replaces a call's reservation by what it used (0 when it failed: the reservation is released). */
    async settleTokens(accountId: string, day: string, reservedTokens: number, usedTokens: number) {
      await prisma.$executeRaw`
        UPDATE daily_usage SET tokens = GREATEST(tokens - ${reservedTokens} + ${usedTokens}, 0), updated_at = now()
        WHERE account_id = ${accountId}::uuid AND day = ${day}`;
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
