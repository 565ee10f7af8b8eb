import { importsEvents, importsWorkerDurable } from "@fit/contracts";
import type { ServiceContext } from "@fit/service-kit";
import { csvRecords, UnreadableFile } from "../domain/csv.ts";
import { rowIdOf } from "../domain/row-id.ts";
import type { Job, StepResult, Store } from "../store/store.ts";
import { rowRemovers, rowsOf, type RowKind } from "./row-owners.ts";

export interface WorkerSettings {
  /** Records one step reads: one bus question to the owning service, one checkpoint. */
  batchRows: number;
  ackWaitMs: number;
}

/** Reads the next `batchRows` records from the checkpoint and writes their rows through the service that owns them. */
const runStep = async ({ bus, store }: Pick<ServiceContext<Store>, "bus" | "store">, job: Job, batchRows: number): Promise<StepResult> => {
  const kind = rowsOf(bus, job);
  const rows = new Map<string, { externalId: string; id: string }>();
  const refusals: StepResult["refusals"] = [];
  let next = { offset: job.offset, line: job.line };
  let read = 0;
  let repeats = 0;
  let done = true;
  for await (const record of csvRecords(store.fileFrom(job.id, job.offset), job.offset, job.line)) {
    if (read === batchRows) {
      done = false;
      break;
    }
    read++;
    next = record.next;
    const outcome = kind.read(record);
    if ("refused" in outcome) {
      refusals.push({ line: record.line, reason: outcome.refused });
      continue;
    }
    let { externalId } = outcome.row;
    // A reading repeated within the step is sent once and counts as already stored; a diary entry written twice is two.
    if (rows.has(externalId) && kind.repeats === "same") {
      repeats++;
      continue;
    }
    for (let occurrence = 2; rows.has(externalId); occurrence++) externalId = `${outcome.row.externalId}#${occurrence}`;
    rows.set(externalId, { ...outcome.row, externalId, id: rowIdOf(job.id, externalId) });
  }
  const unique = [...rows.values()];
  const stored = unique.length ? await kind.write(unique) : [];
  const ownRows = unique.filter((row, i) => stored[i] === row.id).map((row) => ({ rowId: row.id, kind: kind.rowKind }));
  return { next, done, read, ownRows, alreadyStored: repeats + unique.length - ownRows.length, refusals };
};

/** Removes the next batch of the rows an undone import created, each kind by the service that owns it. */
const runUndoStep = async ({ bus, store }: Pick<ServiceContext<Store>, "bus" | "store">, job: Job, batchRows: number) => {
  const rows = await store.ownRows(job.id, batchRows);
  for (const kind of new Set(rows.map((row) => row.kind as RowKind))) {
    await rowRemovers[kind](bus, job.accountId, rows.filter((row) => row.kind === kind).map((row) => row.rowId));
  }
  await store.saveUndoStep(job, rows.map((row) => row.rowId), rows.length < batchRows);
};

/**
 * The work queue: every replica consumes import steps through one durable, so a step goes to one of them, and a
 * step whose replica died unacknowledged goes to another after ackWait, which starts again from the checkpoint.
 */
export const startImportWorker = (context: ServiceContext<Store>, settings: WorkerSettings) =>
  context.bus.subscribe(
    importsEvents.importStep,
    importsWorkerDurable,
    async ({ data }) => {
      const job = await context.store.takeStep(data.importId, data.step);
      if (!job) return;
      try {
        if (job.undoing) await runUndoStep(context, job, settings.batchRows);
        else await context.store.saveStep(job, await runStep(context, job, settings.batchRows));
        context.relay.kick();
      } catch (error) {
        if (!(error instanceof UnreadableFile)) throw error;
        await context.store.fail(job, error.message);
      }
    },
    { ackWaitMs: settings.ackWaitMs, prefetch: 1 },
  );
