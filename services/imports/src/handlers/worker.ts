import { bodyMetricsBus, importsEvents, importsWorkerDurable } from "@fit/contracts";
import type { ServiceContext } from "@fit/service-kit";
import { csvRecords, UnreadableFile } from "../domain/csv.ts";
import { rowIdOf } from "../domain/row-id.ts";
import { weighInOf, type WeighIn } from "../domain/weigh-in-csv.ts";
import type { Job, StepResult, Store } from "../store/store.ts";

export interface WorkerSettings {
  /** Records one step reads: one bus question to the owning service, one checkpoint. */
  batchRows: number;
  ackWaitMs: number;
}

/** Reads the next `batchRows` records from the checkpoint and writes their weigh-ins through body-metrics. */
const runStep = async ({ bus, store }: Pick<ServiceContext<Store>, "bus" | "store">, job: Job, batchRows: number): Promise<StepResult> => {
  const weighIns: WeighIn[] = [];
  const refusals: StepResult["refusals"] = [];
  let next = { offset: job.offset, line: job.line };
  let read = 0;
  let done = true;
  for await (const record of csvRecords(store.fileFrom(job.id, job.offset), job.offset, job.line)) {
    if (read === batchRows) {
      done = false;
      break;
    }
    read++;
    next = record.next;
    const outcome = weighInOf(record, job.format, job.options);
    if ("refused" in outcome) refusals.push({ line: record.line, reason: outcome.refused });
    else weighIns.push(outcome.weighIn);
  }
  // A reading repeated within the step is sent once; the repeat counts as already stored.
  const unique = [...new Map(weighIns.map((w) => [w.externalId, w])).values()].map((w) => ({ ...w, id: rowIdOf(job.id, w.externalId) }));
  const { stored } = unique.length
    ? await bus.request(bodyMetricsBus.importWeighIns, { accountId: job.accountId, rows: unique }, { timeoutMs: 30_000 })
    : { stored: [] as string[] };
  const ownRows = unique.filter((row, i) => stored[i] === row.id).map((row) => ({ rowId: row.id, kind: "weigh-in" }));
  return { next, done, read, ownRows, alreadyStored: weighIns.length - ownRows.length, refusals };
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
        await context.store.saveStep(job, await runStep(context, job, settings.batchRows));
        context.relay.kick();
      } catch (error) {
        if (!(error instanceof UnreadableFile)) throw error;
        await context.store.fail(job, error.message);
      }
    },
    { ackWaitMs: settings.ackWaitMs, prefetch: 1 },
  );
