import { importsEvents, importsWorkerDurable, type ImportRowKind } from "@fit/contracts";
import type { Delivery } from "@fit/bus";
import type { ServiceContext } from "@fit/service-kit";
import { checkNestedDirectory, inflatedEntry, type ArchiveEntry } from "../domain/archive.ts";
import { UnreadableFile } from "../domain/csv.ts";
import { entryAt, partAfter } from "../domain/file-kind.ts";
import { fixedPieces } from "../domain/pieces.ts";
import { rowIdOf } from "../domain/row-id.ts";
import { CHUNK_BYTES, type Job, type StepResult, type Store } from "../store/store.ts";
import { rowOwners } from "./row-owners.ts";
import { recordsOf, type Row } from "./file-records.ts";

export interface WorkerSettings {
  /** Records one step reads: one bus question to the owning service, one checkpoint. */
  batchRows: number;
  ackWaitMs: number;
}

/** The most of a file one step reads past skipped records, so a step stays well inside its ack wait. */
const STEP_BYTES = 32 * 1024 * 1024;
/** Activities one step reads from an activity app's export: each may be a recording of up to 10 MiB to parse. */
const RECORDINGS_PER_STEP = 25;

type Context = Pick<ServiceContext<Store>, "bus" | "store">;

/**
 * Reads the next `batchRows` rows from the checkpoint (or fewer when STEP_BYTES are read first: nearly all of a
 * health export is records it skips) and writes each kind through the service that owns it.
 */
const runStep = async (context: Context, job: Job, batchRows: number): Promise<StepResult> => {
  const rows = new Map<ImportRowKind, Row[]>();
  const refusals: StepResult["refusals"] = [];
  let next: StepResult["next"] = { offset: job.offset, line: job.line };
  let taken = 0;
  let recordings = 0;
  let moved = false;
  let done = true;
  for await (const record of recordsOf(context.store, job)) {
    // The first record is read whatever its size, so a step always moves on.
    if (taken === batchRows || (record.recording && recordings === RECORDINGS_PER_STEP) || (moved && record.next.offset - job.offset > STEP_BYTES)) {
      done = false;
      break;
    }
    next = record.next;
    moved = true;
    if (record.recording) recordings++;
    const { outcome } = record;
    if (outcome === "skipped") continue;
    taken++;
    if ("refused" in outcome) refusals.push({ line: record.line, reason: outcome.refused });
    else rows.set(outcome.kind, [...(rows.get(outcome.kind) ?? []), ...outcome.rows]);
  }
  // A Garmin part read to its end: the import goes on to the next part, which the next step inflates.
  const part = done ? partAfter(job.format, job.part) : undefined;
  if (part !== undefined) {
    next = { offset: 0, line: next.line, part };
    done = false;
  }
  const ownRows: StepResult["ownRows"] = [];
  const kinds: StepResult["kinds"] = {};
  for (const [kind, read] of rows) {
    const owner = rowOwners[kind];
    if (!owner) {
      kinds[kind] = { read: read.length, alreadyStored: read.length };
      continue;
    }
    // A reading repeated within the step is sent once and counts as already stored; a diary entry written twice is two.
    const unique = new Map<string, Row & { id: string }>();
    for (const row of read) {
      if (unique.has(row.externalId) && owner.repeats === "same") continue;
      let { externalId } = row;
      for (let occurrence = 2; unique.has(externalId); occurrence++) externalId = `${row.externalId}#${occurrence}`;
      unique.set(externalId, { ...row, externalId, id: rowIdOf(job.id, externalId) });
    }
    const sent = [...unique.values()];
    const stored = await owner.write(context.bus, job.accountId, sent);
    const own = sent.filter((row, i) => stored[i] === row.id).map((row) => ({ rowId: row.id, kind }));
    ownRows.push(...own);
    kinds[kind] = { read: read.length, alreadyStored: read.length - own.length };
  }
  return { next, done, ownRows, kinds, refusals };
};

/**
 * An archive's first step (and the first of each further part of Garmin's uploads): the entry the import reads,
 * inflated from its start into chunks of its own (what an earlier try or the part before left is dropped first),
 * telling the queue it is alive as each chunk is stored: inflating cannot stop and go on part-way
 * (docs/decisions/0078-apple-health-and-archives.md).
 */
const inflateStep = async ({ store }: Context, job: Job, entry: ArchiveEntry, delivery: Delivery) => {
  await store.dropInflated(job.id);
  let chunks = 0;
  for await (const piece of fixedPieces(inflatedEntry(store.rangeOf(job.id), job.bytes, entry.name), CHUNK_BYTES)) {
    if (!(await store.putInflatedChunk(job, chunks, piece))) return;
    chunks++;
    delivery.working();
  }
  // A part of a Garmin export's uploaded files is an archive itself: checked before any of it is read.
  const garmin = job.kind === "activities" && job.format.layout === "garmin";
  await store.saveInflated(job, chunks, garmin ? await checkNestedDirectory(store.rangeOf(job.id, true), entry.bytes, job.declared) : job.declared);
};

/** Removes the next batch of the rows an undone import created, each kind by the service that owns it. */
const runUndoStep = async ({ bus, store }: Context, job: Job, batchRows: number) => {
  const rows = await store.ownRows(job.id, batchRows);
  for (const kind of new Set(rows.map((row) => row.kind as ImportRowKind))) {
    await rowOwners[kind]?.remove(bus, job.accountId, rows.filter((row) => row.kind === kind).map((row) => row.rowId));
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
    async ({ data }, delivery) => {
      const job = await context.store.takeStep(data.importId, data.step);
      if (!job) return;
      const entry = entryAt(job.format, job.part);
      try {
        if (job.undoing) await runUndoStep(context, job, settings.batchRows);
        else if (entry && !job.inflated) await inflateStep(context, job, entry, delivery);
        else await context.store.saveStep(job, await runStep(context, job, settings.batchRows));
        context.relay.kick();
      } catch (error) {
        if (!(error instanceof UnreadableFile)) throw error;
        await context.store.fail(job, error.message);
      }
    },
    { ackWaitMs: settings.ackWaitMs, prefetch: 1 },
  );
