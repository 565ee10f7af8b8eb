import { deleteAccountEvents, deleteAccountIdempotencyKeys } from "@fit/db";
import { keyAfter, type AccountData } from "@fit/service-kit";
import type { PrismaClient } from "./generated/client.ts";
import { workoutView } from "./workout-view.ts";

/** The account's workouts: exported page by page, deleted at once. */
export const accountData = (prisma: PrismaClient): AccountData => ({
  exports: {
    workouts: {
      page: async (accountId, after, limit) =>
        (await prisma.workout.findMany({ where: { accountId, ...keyAfter("id", after) }, orderBy: { id: "asc" }, take: limit })).map(workoutView),
      key: (row) => row.id,
    },
  },
  deleteAccount: (accountId) =>
    prisma.$transaction(async (tx) => {
      await tx.workout.deleteMany({ where: { accountId } });
      await deleteAccountEvents(tx, accountId);
      await deleteAccountIdempotencyKeys(tx, accountId);
    }),
});
