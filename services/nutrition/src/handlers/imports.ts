import { nutritionBus } from "@fit/contracts";
import type { ServiceContext } from "@fit/service-kit";
import type { Store } from "../store/store.ts";

/**
 * An import's batches of food diary entries (the imports service): stored once per (account, externalId). The key
 * is prefixed so an import's entries never meet another way of logging (docs/decisions/0076-imports-as-background-jobs.md).
 */
export const serveItemImport = ({ bus, store, relay }: ServiceContext<Store>) => [
  bus.serve(nutritionBus.importItems, async ({ accountId, rows }) => {
    const stored = await store.importItems(
      accountId,
      rows.map(({ externalId, ...row }) => ({ ...row, accountId, externalId: `import:${externalId}` })),
    );
    relay.kick();
    return { stored };
  }),
  bus.serve(nutritionBus.removeImportedItems, async ({ accountId, ids }) => {
    const removed = await store.removeImportedItems(accountId, ids);
    if (removed) relay.kick();
    return { removed };
  }),
];
