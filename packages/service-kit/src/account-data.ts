import type { z } from "zod";
import {
  accountDeletionDurable, accountExportParts, identityEvents, type EndpointDef, type ExportPageRequest, type ExportPart, type ExportRow,
} from "@fit/contracts";
import type { Bus } from "@fit/bus";
import type { Stoppable } from "./service.ts";

/** One export part as a store reads it: up to `limit` rows after the row keyed `after`, in key order. */
export interface ExportPager<P extends ExportPart> {
  page: (accountId: string, after: string | null, limit: number) => Promise<ExportRow<P>[]>;
  key: (row: ExportRow<P>) => string;
}

export interface AccountData {
  /** The parts of the export this service holds. */
  exports: { [P in ExportPart]?: ExportPager<P> };
  /** Deletes everything of the account in one transaction; deleting what is already gone changes nothing. */
  deleteAccount(accountId: string): Promise<void>;
}

/**
 * What every service does for "your account, yours to take away" (docs/decisions/0025-account-export-and-deletion.md):
 * answers the gateway's export questions page by page, and consumes `identity.account.deleted` with a durable
 * consumer of its own, so a service that was down deletes on its return.
 */
export const serveAccountData = async (bus: Bus, service: string, data: AccountData): Promise<Stoppable[]> => {
  const served = Object.entries(data.exports).map(([part, pager]) => {
    const { page, key } = pager as ExportPager<ExportPart>;
    // Each part's reply schema checks its rows as they go; here every part is served alike.
    const def: EndpointDef<typeof ExportPageRequest, z.ZodType> = accountExportParts[part as ExportPart];
    return bus.serve(def, async ({ accountId, after, limit }) => {
      const rows = await page(accountId, after, limit);
      const last = rows.at(-1);
      return { rows, next: rows.length === limit && last ? key(last) : null };
    });
  });
  const deletion = await bus.subscribe(identityEvents.accountDeleted, accountDeletionDurable(service), ({ data: { accountId } }) =>
    data.deleteAccount(accountId),
  );
  return [...served, deletion];
};

/** The keyset condition of an export page: rows whose `field` sorts after the last one read. */
export const keyAfter = <F extends string>(field: F, after: string | null) =>
  (after === null ? {} : { [field]: { gt: after } }) as { [K in F]?: { gt: string } };
