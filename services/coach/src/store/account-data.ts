import { keyAfter, type AccountData } from "@fit/service-kit";
import type { PrismaClient } from "./generated/client.ts";

/** The account's daily usage is exported; deleting also drops its cached estimates (a cache, not data of the user's). */
export const accountData = (prisma: PrismaClient): AccountData => ({
  exports: {
    coachUsage: {
      page: async (accountId, after, limit) =>
        (await prisma.dailyUsage.findMany({ where: { accountId, ...keyAfter("day", after) }, orderBy: { day: "asc" }, take: limit }))
          .map(({ day, calls, tokens }) => ({ date: day, calls, tokens })),
      key: (row) => row.date,
    },
  },
  deleteAccount: (accountId) =>
    prisma.$transaction(async (tx) => {
      await tx.dailyUsage.deleteMany({ where: { accountId } });
      await tx.estimateCache.deleteMany({ where: { accountId } });
    }),
});
