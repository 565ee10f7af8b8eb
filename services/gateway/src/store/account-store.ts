import { identityEvents, outboxRow } from "@fit/contracts";
import type { PrismaClient } from "./generated/client.ts";

/** The identity side of "your account, yours to take away" (docs/decisions/0025-account-export-and-deletion.md). */
export const accountStore = (prisma: PrismaClient) => ({
  profile: (accountId: string) =>
    prisma.user.findUnique({ where: { id: accountId }, select: { id: true, email: true, createdAt: true } }),

  /**
   * Deletes the account (its sessions, keys and sign-in links with it) and records `identity.account.deleted` in
   * the same transaction, so the services hear of every deletion that happened and of none that did not. False
   * when the account was already gone.
   */
  delete: (accountId: string) =>
    prisma.$transaction(async (tx) => {
      const user = await tx.user.findUnique({ where: { id: accountId }, select: { email: true } });
      if (!user) return false;
      // Magic-link rows name the email inside their JSON value, not the account: see retireOlderMagicLinks.
      await tx.$executeRaw`
        DELETE FROM verification
        WHERE lower(CASE WHEN value LIKE '{%' THEN value::jsonb ->> 'email' END) = lower(${user.email})`;
      await tx.user.delete({ where: { id: accountId } });
      await tx.outboxEvent.create({ data: outboxRow(identityEvents.accountDeleted, { accountId }) });
      return true;
    }),
});
