import { bodyMetricsBus, importsEvents, importsWorkerDurable, type ImportRowKind } from "@fit/contracts";
import type { ServiceContext } from "@fit/service-kit";
import { APPLE_ROOT, appleRowOf } from "../domain/apple-health.ts";
import { csvRecords, UnreadableFile } from "../domain/csv.ts";
import { rowIdOf } from "../domain/row-id.ts";
import { weighInOf, type WeighIn, type WeighInFormat } from "../domain/weigh-in-csv.ts";
import { rootChildren } from "../domain/xml-elements.ts";
import type { Job, StepResult, Store } from "../store/store.ts";

export interface WorkerSettings {
  /** Records one step reads: one bus question to the owning service, one checkpoint. */
  batchRows: number;
  ackWaitMs: number;
}

/** The most of a file one step reads past skipped records, so a step stays well inside its ack wait. */
const STEP_BYTES = 32 * 1024 * 1024;

type Context = Pick<ServiceContext<Store>, "bus" | "store">;
type Measurement = { externalId: string; ts: number; site: "waist"; valueCm: number };

/** What a step gathers before it writes: the rows of each kind, where reading goes on, and what it refused. */
class Batch {
  readonly weighIns: WeighIn[] = [];
  readonly measurements: Measurement[] = [];
  readonly refusals: StepResult["refusals"] = [];
  readonly read: Partial<Record<ImportRowKind, number>> = {};
  next: { offset: number; line: number };
  rows = 0;
  done = true;

  constructor(job: Job) {
    this.next = { offset: job.offset, line: job.line };
  }

  count(kind: ImportRowKind) {
    this.read[kind] = (this.read[kind] ?? 0) + 1;
    this.rows++;
  }
}

/**
 * Sends one kind's rows to the service that owns them (a repeat within the step once) and tells which are this
 * import's: the rows stored under the ids it proposed.
 */
const write = async <Row extends { externalId: string }>(
  job: Job, kind: ImportRowKind, rows: Row[], send: (rows: (Row & { id: string })[]) => Promise<{ stored: string[] }>,
) => {
  const unique = [...new Map(rows.map((row) => [row.externalId, row])).values()].map((row) => ({ ...row, id: rowIdOf(job.id, row.externalId) }));
  const { stored } = unique.length ? await send(unique) : { stored: [] as string[] };
  const own = unique.filter((row, i) => stored[i] === row.id).map((row) => ({ rowId: row.id, kind }));
  return { own, alreadyStored: rows.length - own.length };
};

/** Writes what a step gathered through body-metrics, and its outcome to checkpoint. */
const writeBatch = async ({ bus }: Context, job: Job, batch: Batch): Promise<StepResult> => {
  const options = { timeoutMs: 30_000 };
  const weighIns = await write(job, "weigh-in", batch.weighIns, (rows) => bus.request(bodyMetricsBus.importWeighIns, { accountId: job.accountId, rows }, options));
  const measurements = await write(job, "measurement", batch.measurements, (rows) =>
    bus.request(bodyMetricsBus.importMeasurements, { accountId: job.accountId, rows }, options));
  const kinds: StepResult["kinds"] = {};
  for (const [kind, read] of Object.entries(batch.read) as [ImportRowKind, number][]) {
    // Kinds this import reads but does not write yet (body fat, workouts) count as skipped.
    const written = kind === "weigh-in" ? weighIns : kind === "measurement" ? measurements : { alreadyStored: read };
    kinds[kind] = { read, alreadyStored: written.alreadyStored };
  }
  return { next: batch.next, done: batch.done, ownRows: [...weighIns.own, ...measurements.own], kinds, refusals: batch.refusals };
};

/** The next `batchRows` records of a weigh-in CSV. */
const readCsv = async ({ store }: Context, job: Job, format: WeighInFormat, batch: Batch, batchRows: number) => {
  for await (const record of csvRecords(store.fileFrom(job.id, job.offset), job.offset, job.line)) {
    if (batch.rows + batch.refusals.length === batchRows) {
      batch.done = false;
      return;
    }
    batch.next = record.next;
    const outcome = weighInOf(record, format, job.options);
    if ("refused" in outcome) batch.refusals.push({ line: record.line, reason: outcome.refused });
    else {
      batch.count("weigh-in");
      batch.weighIns.push(outcome.weighIn);
    }
  }
};

/**
 * The next `batchRows` rows of an Apple Health export, or fewer when STEP_BYTES of it are read first: nearly all of
 * a real export is records it skips (heart rate, steps), which are not rows.
 */
const readAppleExport = async ({ store }: Context, job: Job, batch: Batch, batchRows: number) => {
  for await (const element of rootChildren(store.fileFrom(job.id, job.offset), job.offset, job.line, APPLE_ROOT)) {
    if (batch.rows + batch.refusals.length === batchRows || element.next.offset - job.offset > STEP_BYTES) {
      batch.done = false;
      return;
    }
    batch.next = element.next;
    const row = appleRowOf(element);
    switch (row.kind) {
      case "skipped":
        break;
      case "refused":
        batch.refusals.push({ line: element.line, reason: row.reason });
        break;
      case "weigh-in":
        batch.count("weigh-in");
        batch.weighIns.push({ externalId: row.externalId, ts: row.ts, weightKg: row.weightKg, bodyFatPct: null });
        break;
      case "measurement":
        batch.count("measurement");
        batch.measurements.push({ externalId: row.externalId, ts: row.ts, site: row.site, valueCm: row.valueCm });
        break;
      default:
        batch.count(row.kind);
    }
  }
};

/** Reads the next `batchRows` rows from the checkpoint and writes them through the services that own them. */
const runStep = async (context: Context, job: Job, batchRows: number): Promise<StepResult> => {
  const batch = new Batch(job);
  if (job.format.layout === "apple_health") await readAppleExport(context, job, batch, batchRows);
  else await readCsv(context, job, job.format, batch, batchRows);
  return writeBatch(context, job, batch);
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
