import { workoutsBus } from "@fit/contracts";
import type { ServiceContext } from "@fit/service-kit";
import { IMPORT_KEY_PREFIX, importedWorkout } from "../domain/workout-rows.ts";
import type { Store } from "../store/store.ts";
import { estimateMissingEnergy } from "./energy-estimates.ts";

/**
 * An import's batches (the imports service): stored once per (account, source, externalId), the key prefixed so an
 * import's never meets a file's; energy estimated only for rows not stored before
 * (docs/decisions/0077-workout-imports-over-the-bus.md).
 */
export const serveWorkoutImport = (context: ServiceContext<Store>, { estimateTimeoutMs }: { estimateTimeoutMs: number }) => {
  const { bus, store, relay } = context;
  return [
    bus.serve(workoutsBus.importWorkouts, async ({ accountId, rows }) => {
      const stored = await store.storedKeys(accountId, rows.map((row) => `${IMPORT_KEY_PREFIX}${row.externalId}`));
      const fresh = rows.filter((row) => !stored.has(`${row.source} ${IMPORT_KEY_PREFIX}${row.externalId}`));
      const estimates = await estimateMissingEnergy(context, accountId, fresh, estimateTimeoutMs);
      const estimateOf = new Map(fresh.map((row, i) => [row, estimates[i]!]));
      const outcomes = await store.importRows(rows.map((row) => importedWorkout(accountId, row, estimateOf.get(row) ?? null)));
      relay.kick();
      return { rows: outcomes };
    }),
    bus.serve(workoutsBus.removeImportedWorkouts, async ({ accountId, ids }) => {
      const removed = await store.removeImported(accountId, ids);
      if (removed) relay.kick();
      return { removed };
    }),
  ];
};
