import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import { AppError, bodyMetricsBus, IMPORT_FILE_LIMIT, operations, type ImportRowKind } from "@fit/contracts";
import { serveOperation, type ServiceContext } from "@fit/service-kit";
import { isAppleExport } from "../domain/apple-health.ts";
import { recogniseWeighIns, type ImportOptions } from "../domain/weigh-in-csv.ts";
import { CHUNK_BYTES, type FileFormat, type Store } from "../store/store.ts";

const UNDO_BATCH = 500;

/** How each kind of row an import writes is removed again by the service that owns it. */
const REMOVE = {
  "weigh-in": bodyMetricsBus.removeImportedWeighIns,
  measurement: bodyMetricsBus.removeImportedMeasurements,
} as const;

/** The request's bytes in pieces of exactly CHUNK_BYTES (the last may be shorter), refused past the limit. */
async function* fixedPieces(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let held = 0;
  let total = 0;
  for await (const piece of source) {
    total += piece.length;
    if (total > IMPORT_FILE_LIMIT) throw new AppError("payload_too_large", "request body is too large");
    pending.push(piece);
    held += piece.length;
    while (held >= CHUNK_BYTES) {
      const joined = Buffer.concat(pending);
      yield joined.subarray(0, CHUNK_BYTES);
      pending = [joined.subarray(CHUNK_BYTES)];
      held = joined.length - CHUNK_BYTES;
    }
  }
  if (held > 0) yield Buffer.concat(pending);
}

const ZIP = Buffer.from("PK\x03\x04", "latin1");

/** What the file's first piece shows it to be, and where its rows start; a file this import cannot read is a 400. */
const recognise = (head: Buffer, options: ImportOptions): { format: FileFormat; offset: number; line: number } => {
  if (isAppleExport(head)) return { format: { layout: "apple_health" }, offset: 0, line: 1 };
  if (head.subarray(0, 4).equals(ZIP)) {
    throw new AppError("validation", "zip archives are not read yet: send the export.xml inside Apple Health's export.zip");
  }
  const recognised = recogniseWeighIns(head, options);
  if (!recognised) {
    throw new AppError("validation", "the file's header names no date and weight column of a weigh-in export this import reads " +
      "(Withings, Fitbit, Renpho, Libra, Happy Scale), and it is no Apple Health export.xml");
  }
  return recognised;
};

/**
 * Stores the upload piece by piece as it arrives, once its first piece shows a header this import reads; nothing
 * is kept of a file refused or cut off.
 */
const storeFile = async (store: Store, importId: string, source: AsyncIterable<Buffer>, options: ImportOptions) => {
  let recognised: ReturnType<typeof recognise> | undefined;
  let bytes = 0;
  let seq = 0;
  try {
    for await (const piece of fixedPieces(source)) {
      if (seq === 0) recognised = recognise(piece, options);
      await store.putChunk(importId, seq++, piece);
      bytes += piece.length;
    }
  } catch (error) {
    await store.dropFile(importId);
    throw error;
  }
  if (!recognised) throw new AppError("validation", "the file is empty");
  return { recognised, bytes };
};

export const importRoutes = ({ app, store, bus, relay }: ServiceContext<Store>) => {
  serveOperation(app, operations.startImport, async ({ body, query, caller }) => {
    const options: ImportOptions = { tz: query.tz ?? "UTC", unit: query.unit };
    const source: AsyncIterable<Buffer> = body instanceof Readable ? body : Readable.from([Buffer.from(body.text)]);
    const id = randomUUID();
    const { recognised, bytes } = await storeFile(store, id, source, options);
    const summary = await store.createImport({
      id, accountId: caller.accountId, fileName: query.name ?? null, bytes, options, format: recognised.format,
      offset: recognised.offset, line: recognised.line,
    });
    relay.kick();
    return summary;
  });

  serveOperation(app, operations.listImports, async ({ caller }) => ({ items: await store.listImports(caller.accountId) }));

  serveOperation(app, operations.getImport, async ({ params, caller }) => {
    const summary = await store.getImport(caller.accountId, params.id);
    if (!summary) throw new AppError("not_found", "import not found");
    return summary;
  });

  // Cancels an import still running, else removes the rows a finished one created, a batch at a time, each batch
  // forgotten once its service has removed it: a retry after a failure goes on where it stopped.
  serveOperation(app, operations.deleteImport, async ({ params, caller }) => {
    const cancelled = await store.cancel(caller.accountId, params.id);
    if (cancelled) return cancelled;
    if (!(await store.finished(caller.accountId, params.id))) {
      const summary = await store.getImport(caller.accountId, params.id);
      if (!summary) throw new AppError("not_found", "import not found");
      return summary;
    }
    for (let rows = await store.ownRows(params.id, UNDO_BATCH); rows.length; rows = await store.ownRows(params.id, UNDO_BATCH)) {
      for (const kind of Object.keys(REMOVE) as (keyof typeof REMOVE)[]) {
        const ids = rows.filter((row) => (row.kind as ImportRowKind) === kind).map((row) => row.rowId);
        if (!ids.length) continue;
        await bus.request(REMOVE[kind], { accountId: caller.accountId, ids }, { timeoutMs: 30_000 });
        await store.forgetRows(params.id, ids);
      }
    }
    return store.markUndone(caller.accountId, params.id);
  });
};
