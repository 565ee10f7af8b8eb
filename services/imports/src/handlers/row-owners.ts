import { bodyMetricsBus, nutritionBus } from "@fit/contracts";
import type { Bus } from "@fit/bus";
import type { CsvRecord } from "../domain/csv.ts";
import { foodItemOf, type DiaryItem } from "../domain/food-diary-csv.ts";
import { weighInOf, type WeighIn } from "../domain/weigh-in-csv.ts";
import type { Job } from "../store/store.ts";

const WRITE_TIMEOUT_MS = 30_000;

/** How one import's records become rows, and the service that owns those rows stores them. */
export interface RowsOf<Row extends { externalId: string }> {
  /** The kind recorded with each row the import creates: what its undo asks to remove. */
  rowKind: RowKind;
  read: (record: CsvRecord) => { row: Row } | { refused: string };
  /** A second row with an external id seen before in the step is the same reading again, or another entry (a second serving). */
  repeats: "same" | "another";
  /** Stores the rows once per external id; the id stored under each, in order. A method, so a kind's rows widen to any row. */
  write(rows: (Row & { id: string })[]): Promise<string[]>;
}

/** The kinds of rows imports create, and how each is removed by its owner (an import's undo). */
export const rowRemovers = {
  "weigh-in": (bus: Bus, accountId: string, ids: string[]) =>
    bus.request(bodyMetricsBus.removeImportedWeighIns, { accountId, ids }, { timeoutMs: WRITE_TIMEOUT_MS }),
  "food-item": (bus: Bus, accountId: string, ids: string[]) =>
    bus.request(nutritionBus.removeImportedItems, { accountId, ids }, { timeoutMs: WRITE_TIMEOUT_MS }),
};
export type RowKind = keyof typeof rowRemovers;

const weighIns = (bus: Bus, job: Extract<Job, { kind: "weigh-ins" }>): RowsOf<WeighIn> => ({
  rowKind: "weigh-in",
  repeats: "same",
  read: (record) => {
    const outcome = weighInOf(record, job.format, job.options);
    return "refused" in outcome ? outcome : { row: outcome.weighIn };
  },
  write: async (rows) =>
    (await bus.request(bodyMetricsBus.importWeighIns, { accountId: job.accountId, rows }, { timeoutMs: WRITE_TIMEOUT_MS })).stored,
});

const foodItems = (bus: Bus, job: Extract<Job, { kind: "food" }>): RowsOf<DiaryItem> => ({
  rowKind: "food-item",
  repeats: "another",
  read: (record) => {
    const outcome = foodItemOf(record, job.format);
    return "refused" in outcome ? outcome : { row: outcome.item };
  },
  write: async (rows) =>
    (await bus.request(nutritionBus.importItems, { accountId: job.accountId, rows }, { timeoutMs: WRITE_TIMEOUT_MS })).stored,
});

export const rowsOf = (bus: Bus, job: Job): RowsOf<{ externalId: string }> =>
  job.kind === "weigh-ins" ? weighIns(bus, job) : foodItems(bus, job);
