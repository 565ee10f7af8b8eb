import { deleteAccountEvents, deleteAccountIdempotencyKeys } from "@fit/db";
import { keyAfter, type AccountData } from "@fit/service-kit";
import type { PrismaClient } from "./generated/client.ts";
import { measurementView, readingView, targetsView } from "./views.ts";

/** The account's weigh-ins, measurements and targets: exported page by page, deleted at once. */
export const accountData = (prisma: PrismaClient): AccountData => ({
  exports: {
    weighIns: {
      page: async (accountId, after, limit) =>
        (await prisma.weightReading.findMany({ where: { accountId, ...keyAfter("id", after) }, orderBy: { id: "asc" }, take: limit })).map(readingView),
      key: (row) => row.id,
    },
    measurements: {
      page: async (accountId, after, limit) =>
        (await prisma.measurement.findMany({ where: { accountId, ...keyAfter("id", after) }, orderBy: { id: "asc" }, take: limit })).map(measurementView),
      key: (row) => row.id,
    },
    // One row per account at most: the first page is all of it.
    targets: {
      page: async (accountId, after) => {
        const row = after === null ? await prisma.targets.findUnique({ where: { accountId } }) : null;
        return row ? [targetsView(row)] : [];
      },
      key: (row) => String(row.id),
    },
  },
  deleteAccount: (accountId) =>
    prisma.$transaction(async (tx) => {
      // The range first: a read rolling it forward locks it before the day locks the readings' delete takes.
      await tx.weightRollUp.deleteMany({ where: { accountId } });
      await tx.weightReading.deleteMany({ where: { accountId } });
      await tx.measurement.deleteMany({ where: { accountId } });
      await tx.importedBodyFat.deleteMany({ where: { accountId } });
      await tx.targets.deleteMany({ where: { accountId } });
      await deleteAccountEvents(tx, accountId);
      await deleteAccountIdempotencyKeys(tx, accountId);
    }),
});
