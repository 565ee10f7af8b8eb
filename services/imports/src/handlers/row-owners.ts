import {
  bodyMetricsBus, IMPORT_BATCH_LIMIT, nutritionBus, WORKOUT_IMPORT_BATCH, workoutsBus,
  type ImportedBodyFat, type ImportedFoodItem, type ImportedMeasurement, type ImportedWeighIn, type ImportedWorkoutRow, type ImportRowKind,
} from "@fit/contracts";
import type { z } from "zod";
import type { Bus } from "@fit/bus";

const WRITE_TIMEOUT_MS = 30_000;

/** `items` in pieces of at most `size`, each handed to `each` in turn; their answers in order. */
const inPieces = async <T, R>(items: T[], size: number, each: (piece: T[]) => Promise<R[]>): Promise<R[]> => {
  const answers: R[] = [];
  for (let i = 0; i < items.length; i += size) answers.push(...(await each(items.slice(i, i + size))));
  return answers;
};

/** How the service that owns one kind of row stores an import's rows of that kind and removes them again. */
interface RowOwner {
  /** A second row with an external id seen before in the step is the same reading again, or another entry (a second serving). */
  repeats: "same" | "another";
  /**
   * Stores the rows once per external id; the id stored under each, in order. The rows of a kind are what its
   * readers made of the file, each checked against this kind's contract as it was read.
   */
  write(bus: Bus, accountId: string, rows: { id: string; externalId: string }[]): Promise<string[]>;
  remove(bus: Bus, accountId: string, ids: string[]): Promise<unknown>;
}

/**
 * The owners of the kinds of row imports create (docs/decisions/0076-imports-as-background-jobs.md). A kind read
 * but not written has none and counts as skipped.
 */
export const rowOwners: Partial<Record<ImportRowKind, RowOwner>> = {
  "weigh-in": {
    repeats: "same",
    write: async (bus, accountId, rows) =>
      (await bus.request(bodyMetricsBus.importWeighIns, { accountId, rows: rows as z.output<typeof ImportedWeighIn>[] }, { timeoutMs: WRITE_TIMEOUT_MS })).stored,
    remove: (bus, accountId, ids) => bus.request(bodyMetricsBus.removeImportedWeighIns, { accountId, ids }, { timeoutMs: WRITE_TIMEOUT_MS }),
  },
  measurement: {
    repeats: "same",
    write: async (bus, accountId, rows) =>
      (await bus.request(bodyMetricsBus.importMeasurements, { accountId, rows: rows as z.output<typeof ImportedMeasurement>[] }, { timeoutMs: WRITE_TIMEOUT_MS })).stored,
    remove: (bus, accountId, ids) => bus.request(bodyMetricsBus.removeImportedMeasurements, { accountId, ids }, { timeoutMs: WRITE_TIMEOUT_MS }),
  },
  // A health export's body fat, recorded apart from its weigh-in: body-metrics shows it on the weigh-in of its instant.
  "body-fat": {
    repeats: "same",
    write: async (bus, accountId, rows) =>
      (await bus.request(bodyMetricsBus.importBodyFat, { accountId, rows: rows as z.output<typeof ImportedBodyFat>[] }, { timeoutMs: WRITE_TIMEOUT_MS })).stored,
    remove: (bus, accountId, ids) => bus.request(bodyMetricsBus.removeImportedBodyFat, { accountId, ids }, { timeoutMs: WRITE_TIMEOUT_MS }),
  },
  // A workout may carry a route of 1 000 points: ten to a question keep it inside NATS's message size.
  workout: {
    repeats: "same",
    write: (bus, accountId, rows) =>
      inPieces(rows as z.output<typeof ImportedWorkoutRow>[], WORKOUT_IMPORT_BATCH, async (piece) =>
        (await bus.request(workoutsBus.importWorkouts, { accountId, rows: piece }, { timeoutMs: WRITE_TIMEOUT_MS })).rows.map((row) => row.id)),
    remove: (bus, accountId, ids) =>
      inPieces(ids, IMPORT_BATCH_LIMIT, async (piece) => [await bus.request(workoutsBus.removeImportedWorkouts, { accountId, ids: piece }, { timeoutMs: WRITE_TIMEOUT_MS })]),
  },
  "food-item": {
    repeats: "another",
    write: async (bus, accountId, rows) =>
      (await bus.request(nutritionBus.importItems, { accountId, rows: rows as z.output<typeof ImportedFoodItem>[] }, { timeoutMs: WRITE_TIMEOUT_MS })).stored,
    remove: (bus, accountId, ids) => bus.request(nutritionBus.removeImportedItems, { accountId, ids }, { timeoutMs: WRITE_TIMEOUT_MS }),
  },
};
