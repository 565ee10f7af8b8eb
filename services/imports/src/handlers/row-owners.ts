import { bodyMetricsBus, nutritionBus, type ImportedFoodItem, type ImportedMeasurement, type ImportedWeighIn, type ImportRowKind } from "@fit/contracts";
import type { z } from "zod";
import type { Bus } from "@fit/bus";

const WRITE_TIMEOUT_MS = 30_000;

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
 * but not written yet (body fat apart from its weigh-in, workouts of a health export) has none and counts as skipped.
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
  "food-item": {
    repeats: "another",
    write: async (bus, accountId, rows) =>
      (await bus.request(nutritionBus.importItems, { accountId, rows: rows as z.output<typeof ImportedFoodItem>[] }, { timeoutMs: WRITE_TIMEOUT_MS })).stored,
    remove: (bus, accountId, ids) => bus.request(nutritionBus.removeImportedItems, { accountId, ids }, { timeoutMs: WRITE_TIMEOUT_MS }),
  },
};
