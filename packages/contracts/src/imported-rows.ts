import { z } from "zod";
import { defineEndpoint } from "./bus.ts";
import { accountId, Uuid } from "./common.ts";

/** The most rows one question of an import carries. */
export const IMPORT_BATCH_LIMIT = 500;

/**
 * The two questions a service answers for the imports service's rows of one kind: store a batch once per
 * (account, externalId), and remove an import's rows by id (never a row logged another way). Every row carries
 * the id its import proposes, the same whenever the same import writes it again, so the import can tell its own
 * rows from rows already there (docs/decisions/0076-imports-as-background-jobs.md).
 */
export const importEndpoints = <Row extends z.ZodType>(service: string, subject: string, row: Row) => ({
  import: defineEndpoint({
    subject: `${subject}.import`,
    service,
    request: z.object({ accountId, rows: z.array(row).min(1).max(IMPORT_BATCH_LIMIT) }),
    reply: z.object({
      stored: z.array(Uuid).meta({
        description: "The id stored under each row's externalId, in the rows' order: the row's own id when this call or an " +
          "earlier one with that id stored it, another when the account already had it.",
      }),
    }),
  }),
  removeImported: defineEndpoint({
    subject: `${subject}.remove-imported`,
    service,
    request: z.object({ accountId, ids: z.array(Uuid).min(1).max(IMPORT_BATCH_LIMIT) }),
    reply: z.object({ removed: z.number().int().min(0) }),
  }),
});
