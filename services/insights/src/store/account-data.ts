import type { AccountData } from "@fit/service-kit";
import type { PrismaClient } from "./generated/client.ts";
import { profileView } from "./profile-view.ts";
import type { WeightDays } from "./weight-days.ts";

/**
 * The account's profile is exported (the read model is a copy of what body-metrics and nutrition export); deleting
 * drops the profile and the read model alike.
 */
export const accountData = (prisma: PrismaClient, weightDays: WeightDays, forget: (accountId: string) => void): AccountData => ({
  exports: {
    // At most one row: the profile the account stored (none when it never set one).
    profile: {
      page: async (accountId, after) => {
        const row = after === null ? await prisma.profile.findUnique({ where: { accountId } }) : null;
        return row ? [profileView(row)] : [];
      },
      key: () => "profile",
    },
  },
  deleteAccount: async (accountId) => {
    await prisma.$transaction(async (tx) => {
      await tx.profile.deleteMany({ where: { accountId } });
      await weightDays.erase(tx, accountId);
      await tx.weightReading.deleteMany({ where: { accountId } });
      await tx.intakeDay.deleteMany({ where: { accountId } });
      await tx.backfilledAccount.deleteMany({ where: { accountId } });
    });
    weightDays.forget(accountId);
    forget(accountId);
  },
});
