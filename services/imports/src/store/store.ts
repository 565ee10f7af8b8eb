import { IMPORT_REFUSALS_KEPT, importsEvents, outboxRow, type ImportRowKind, type ImportSummary } from "@fit/contracts";
import { createOutboxSource, deleteAccountEvents, ping, type Database } from "@fit/db";
import type { AccountData } from "@fit/service-kit";
import { progressOf, type Recognised } from "../domain/file-kind.ts";
import type { ImportOptions } from "../domain/weigh-in-csv.ts";
import { Prisma, PrismaClient, type Import } from "./generated/client.ts";

/** The file is kept in pieces of this size: a step reads from any offset by fetching only the pieces it needs. */
export const CHUNK_BYTES = 1024 * 1024;

/** The imports a step still reads; a cancelled or finished one is left alone. */
const OPEN = ["queued", "reading"];
/** The imports a step works on: reading the file, or removing the rows of an undo. */
const STEPPING = [...OPEN, "undoing"];
/** Imports whose rows an undo removes. */
const FINISHED = ["done", "failed", "cancelled"];

type KindCounts = ImportSummary["kinds"];

export type NewImport = Recognised & {
  id: string;
  accountId: string;
  fileName: string | null;
  bytes: number;
  options: ImportOptions;
};

/** An import as a step works on it. */
export type Job = Recognised & {
  id: string;
  accountId: string;
  /** The upload's size. */
  bytes: number;
  /** Whether the archive's entry it reads has been inflated into chunks of its own (see ImportChunk.inflated). */
  inflated: boolean;
  /** Garmin's export: the part it is at, the record number that part's recordings start at, and what the export
   * and the parts inflated so far declare (see the import's columns). */
  part: number;
  partLine: number;
  declared: number;
  step: number;
  /** Whether the step reads the file or removes the import's rows. */
  undoing: boolean;
  options: ImportOptions;
};

/** What one step read: where the next starts, and its rows. */
export interface StepResult {
  /** With `part`, the next step inflates that part of Garmin's export, whose records start at `line`. */
  next: { offset: number; line: number; part?: number };
  done: boolean;
  /** Rows the owning service holds under this import's own ids, with their kind. */
  ownRows: { rowId: string; kind: ImportRowKind }[];
  /** Per kind: the rows read, and those already stored under another id (or not written at all). */
  kinds: Partial<Record<ImportRowKind, { read: number; alreadyStored: number }>>;
  refusals: { line: number; reason: string }[];
}

const summaryOf = (row: Import): ImportSummary => {
  const bytes = Number(row.bytes);
  const finished = row.state === "done" || row.state === "undone";
  const format = row.format as unknown as Recognised["format"];
  return {
    id: row.id,
    fileName: row.fileName,
    bytes,
    state: row.state as ImportSummary["state"],
    layout: format.layout,
    kind: row.kind as Recognised["kind"],
    counts: { read: row.read, created: row.created, skipped: row.skipped, refused: row.refused },
    kinds: row.kinds as KindCounts,
    refusals: row.refusals as ImportSummary["refusals"],
    progress: finished ? 1 : progressOf(format, bytes, row.part, Number(row.offset)),
    error: row.error,
    createdAt: row.createdAt.getTime(),
    finishedAt: row.finishedAt?.getTime() ?? null,
  };
};

const stepEvent = (accountId: string, importId: string, step: number) => outboxRow(importsEvents.importStep, { accountId, importId, step });

/** The only place that talks to the database. Every query a caller makes is scoped by account. */
export const createStore = (db: Database) => {
  const prisma = new PrismaClient({ adapter: db.adapter });

  const accountData: AccountData = {
    // An import's record is how a file came in, not data of the person's own: the rows it made are exported where they live.
    exports: {},
    deleteAccount: (accountId) =>
      prisma.$transaction(async (tx) => {
        const ids = (await tx.import.findMany({ where: { accountId }, select: { id: true } })).map((row) => row.id);
        await tx.importChunk.deleteMany({ where: { importId: { in: ids } } });
        await tx.importRow.deleteMany({ where: { importId: { in: ids } } });
        await tx.import.deleteMany({ where: { accountId } });
        await deleteAccountEvents(tx, accountId);
      }),
  };

  const dropFile = (importId: string) => prisma.importChunk.deleteMany({ where: { importId } });

  return {
    outbox: createOutboxSource(db),
    ping: () => ping(prisma),
    close: () => prisma.$disconnect(),
    accountData,

    // On the driver, which sends the bytes as they are: through the Prisma client each 1 MiB chunk became copies
    // and text, and the service grew with the upload's size (docs/performance.md, "Apple Health imports").
    putChunk: (importId: string, seq: number, data: Buffer) =>
      db.query(Prisma.sql`INSERT INTO import_chunk (import_id, seq, data) VALUES (${importId}::uuid, ${seq}, ${data})`),

    /**
     * The stored upload's bytes (or its inflated entry's: a Garmin export's nested zip) in [start, end), for random
     * access into an archive. Reading its directory reads a few bytes at a time, so the last chunk fetched is kept.
     */
    rangeOf(importId: string, inflated = false) {
      let held: { seq: number; bytes: Buffer } | undefined;
      const chunk = async (seq: number) => {
        if (held?.seq !== seq) {
          const row = await prisma.importChunk.findUnique({ where: { importId_inflated_seq: { importId, inflated, seq } } });
          if (!row) return undefined;
          held = { seq, bytes: Buffer.from(row.data.buffer, row.data.byteOffset, row.data.byteLength) };
        }
        return held.bytes;
      };
      return async function* range(start: number, end: number): AsyncGenerator<Buffer> {
        for (let at = start; at < end;) {
          const bytes = await chunk(Math.floor(at / CHUNK_BYTES));
          if (!bytes) return;
          const from = at % CHUNK_BYTES;
          const piece = bytes.subarray(from, Math.min(bytes.length, from + end - at));
          if (!piece.length) return;
          yield piece;
          at += piece.length;
        }
      };
    },

    /** Forgets what an earlier try inflated of the import's archive entry: inflating starts again from its start. */
    dropInflated: (importId: string) => prisma.importChunk.deleteMany({ where: { importId, inflated: true } }),

    /**
     * Stores a chunk of the inflated entry while the step is still the import's current one (a cancel waits for
     * it, then drops it with the rest); false once it is not, and the step stops.
     */
    putInflatedChunk: async (job: Job, seq: number, data: Buffer) =>
      // On the driver, as putChunk: an entry inflates to gigabytes.
      (await db.query(Prisma.sql`INSERT INTO import_chunk (import_id, inflated, seq, data)
          SELECT ${job.id}::uuid, true, ${seq}, ${data}
          WHERE EXISTS (SELECT 1 FROM import WHERE id = ${job.id}::uuid AND step = ${job.step} AND state IN ('queued', 'reading') FOR SHARE)
          ON CONFLICT (import_id, inflated, seq) DO UPDATE SET data = excluded.data
          RETURNING seq`)).length === 1,

    /**
     * The entry is inflated into `chunks` chunks: the next step reads them. A concurrent try that dropped some
     * (a step handed out again while this one was still inflating) makes the count differ, and this one is retried.
     * `declared`: the total declared with a Garmin part's own entries counted.
     */
    saveInflated: (job: Job, chunks: number, declared: number) =>
      prisma.$transaction(async (tx) => {
        const stored = await tx.importChunk.count({ where: { importId: job.id, inflated: true } });
        if (stored !== chunks) throw new Error(`import ${job.id}: ${stored} inflated chunks stored, ${chunks} written`);
        const { count } = await tx.import.updateMany({ where: { id: job.id, step: job.step, state: { in: OPEN } }, data: { inflated: true, declared, step: job.step + 1 } });
        if (count) await tx.outboxEvent.create({ data: stepEvent(job.accountId, job.id, job.step + 1) });
      }),

    /** Forgets a file whose upload did not finish. */
    dropFile,

    /**
     * Deletes the chunks of uploads that were cut off without the request's own clean-up (a replica that died
     * mid-upload): no import holds them and none has arrived for `idleMs`.
     */
    pruneAbandonedUploads: (idleMs: number) =>
      prisma.$executeRaw`DELETE FROM import_chunk WHERE import_id IN (
          SELECT c.import_id FROM import_chunk c WHERE NOT EXISTS (SELECT 1 FROM import i WHERE i.id = c.import_id)
          GROUP BY c.import_id HAVING max(c.created_at) < now() - make_interval(secs => ${idleMs / 1000}))`,

    /** The import, queued, with its first step's event: the file's chunks are already stored. */
    async createImport(fresh: NewImport): Promise<ImportSummary> {
      const [row] = await prisma.$transaction([
        prisma.import.create({
          data: {
            id: fresh.id, accountId: fresh.accountId, fileName: fresh.fileName, bytes: fresh.bytes, state: "queued", kind: fresh.kind,
            options: fresh.options, format: fresh.format, offset: fresh.offset, line: fresh.line,
            declared: "parts" in fresh.format ? fresh.format.declared : 0,
          },
        }),
        prisma.outboxEvent.create({ data: stepEvent(fresh.accountId, fresh.id, 0) }),
      ]);
      return summaryOf(row);
    },

    /** The file's bytes from `offset` on, a piece at a time: the upload's, or its archive entry's once inflated. */
    async *fileFrom(importId: string, offset: number, inflated: boolean): AsyncGenerator<Buffer> {
      for (let seq = Math.floor(offset / CHUNK_BYTES); ; seq++) {
        // On the driver, as putChunk: through the Prisma client each chunk read left copies behind.
        const [chunk] = await db.query<{ data: Uint8Array }>(
          Prisma.sql`SELECT data FROM import_chunk WHERE import_id = ${importId}::uuid AND inflated = ${inflated} AND seq = ${seq}`,
        );
        if (!chunk) return;
        const bytes = Buffer.from(chunk.data.buffer, chunk.data.byteOffset, chunk.data.byteLength);
        yield seq === Math.floor(offset / CHUNK_BYTES) ? bytes.subarray(offset % CHUNK_BYTES) : bytes;
      }
    },

    getImport: async (accountId: string, id: string) => {
      const row = await prisma.import.findFirst({ where: { id, accountId } });
      return row && summaryOf(row);
    },

    listImports: async (accountId: string) =>
      (await prisma.import.findMany({ where: { accountId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: 100 })).map(summaryOf),

    /** The import this step works on, or null when the step is stale (taken already) or the import is over. */
    async takeStep(importId: string, step: number): Promise<Job | null> {
      const row = await prisma.import.findFirst({ where: { id: importId, step, state: { in: STEPPING } } });
      if (!row) return null;
      if (row.state === "queued") await prisma.import.updateMany({ where: { id: importId, state: "queued" }, data: { state: "reading" } });
      const recognised = { kind: row.kind, format: row.format } as unknown as Pick<Recognised, "kind" | "format">;
      return {
        id: row.id, accountId: row.accountId, bytes: Number(row.bytes), inflated: row.inflated, step, undoing: row.state === "undoing",
        offset: Number(row.offset), line: row.line, part: row.part, partLine: row.partLine, declared: Number(row.declared),
        options: row.options as unknown as ImportOptions, ...recognised,
      } as Job;
    },

    /**
     * A step's outcome in one transaction: the rows it owns recorded (whatever else happens, so undo finds them),
     * and, if the step is still the import's current one, the checkpoint moved on with the counts and the next
     * step's event. A row this import recorded before (a line repeated in the file) counts as skipped. A step
     * that ends a Garmin part drops its inflated chunks, so the next step inflates the part after it.
     */
    saveStep: (job: Job, result: StepResult) =>
      prisma.$transaction(async (tx) => {
        const recorded = result.ownRows.length
          ? await tx.importRow.createManyAndReturn({ data: result.ownRows.map((row) => ({ importId: job.id, ...row })), skipDuplicates: true, select: { kind: true } })
          : [];
        const current = await tx.import.findFirst({ where: { id: job.id, step: job.step, state: { in: OPEN } } });
        if (!current) return;
        const refusals = [...(current.refusals as StepResult["refusals"]), ...result.refusals].slice(0, IMPORT_REFUSALS_KEPT);
        const kinds: KindCounts = { ...(current.kinds as KindCounts) };
        let read = 0;
        let skipped = 0;
        for (const [kind, step] of Object.entries(result.kinds) as [ImportRowKind, { read: number; alreadyStored: number }][]) {
          const created = recorded.filter((row) => row.kind === kind).length;
          const stepSkipped = step.alreadyStored + result.ownRows.filter((row) => row.kind === kind).length - created;
          const before = kinds[kind] ?? { read: 0, created: 0, skipped: 0 };
          kinds[kind] = { read: before.read + step.read, created: before.created + created, skipped: before.skipped + stepSkipped };
          read += step.read;
          skipped += stepSkipped;
        }
        const { part } = result.next;
        await tx.import.update({
          where: { id: job.id },
          data: {
            ...(part === undefined ? {} : { part, partLine: result.next.line, inflated: false }),
            step: job.step + 1, offset: result.next.offset, line: result.next.line, read: { increment: read + result.refusals.length },
            created: { increment: recorded.length }, skipped: { increment: skipped },
            refused: { increment: result.refusals.length }, refusals, kinds,
            ...(result.done ? { state: "done", finishedAt: new Date() } : {}),
          },
        });
        if (result.done) await tx.importChunk.deleteMany({ where: { importId: job.id } });
        else {
          if (part !== undefined) await tx.importChunk.deleteMany({ where: { importId: job.id, inflated: true } });
          await tx.outboxEvent.create({ data: stepEvent(job.accountId, job.id, job.step + 1) });
        }
      }),

    /** The file cannot be read on: the import fails with the reason, keeping the rows read before. */
    fail: (job: Job, error: string) =>
      prisma.$transaction([
        prisma.import.updateMany({ where: { id: job.id, step: job.step, state: { in: OPEN } }, data: { state: "failed", error, finishedAt: new Date() } }),
        prisma.importChunk.deleteMany({ where: { importId: job.id } }),
      ]),

    /** Stops an import that is still queued or being read; null when it is not one of those. */
    async cancel(accountId: string, id: string) {
      const { count } = await prisma.import.updateMany({ where: { id, accountId, state: { in: OPEN } }, data: { state: "cancelled", finishedAt: new Date() } });
      if (!count) return null;
      await dropFile(id);
      return summaryOf((await prisma.import.findUniqueOrThrow({ where: { id } })));
    },

    /**
     * Starts undoing a finished (or cancelled) import: its next step removes rows instead of reading. Null when the
     * account has no such import.
     */
    startUndo: (accountId: string, id: string) =>
      prisma.$transaction(async (tx) => {
        const row = await tx.import.findFirst({ where: { id, accountId, state: { in: FINISHED } } });
        if (!row) return null;
        const undoing = await tx.import.update({ where: { id }, data: { state: "undoing", step: row.step + 1 } });
        await tx.outboxEvent.create({ data: stepEvent(accountId, id, undoing.step) });
        return summaryOf(undoing);
      }),

    /** Up to `limit` of the rows the import created and has not yet removed. */
    ownRows: (importId: string, limit: number) => prisma.importRow.findMany({ where: { importId }, take: limit, orderBy: { rowId: "asc" } }),

    /**
     * An undo step's outcome: the rows their services removed are forgotten, and, if the step is still the
     * import's current one, the next step's event, or `undone` when none are left.
     */
    saveUndoStep: (job: Job, removed: string[], done: boolean) =>
      prisma.$transaction(async (tx) => {
        await tx.importRow.deleteMany({ where: { importId: job.id, rowId: { in: removed } } });
        const { count } = await tx.import.updateMany({
          where: { id: job.id, step: job.step, state: "undoing" },
          data: { step: job.step + 1, ...(done ? { state: "undone" } : {}) },
        });
        if (count && !done) await tx.outboxEvent.create({ data: stepEvent(job.accountId, job.id, job.step + 1) });
      }),
  };
};

export type Store = ReturnType<typeof createStore>;
