import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import { AppError, IMPORT_FILE_LIMIT, operations } from "@fit/contracts";
import { serveOperation, type ServiceContext } from "@fit/service-kit";
import { UnreadableFile } from "../domain/csv.ts";
import { isZip, recogniseArchive, recogniseFile, UNRECOGNISED, type Recognised } from "../domain/file-kind.ts";
import { fixedPieces } from "../domain/pieces.ts";
import type { ImportOptions } from "../domain/weigh-in-csv.ts";
import { CHUNK_BYTES, type Store } from "../store/store.ts";

/** The request's bytes, refused past the limit. */
async function* limited(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let total = 0;
  for await (const piece of source) {
    total += piece.length;
    if (total > IMPORT_FILE_LIMIT) throw new AppError("payload_too_large", "request body is too large");
    yield piece;
  }
}

/**
 * Stores the upload piece by piece as it arrives, once its first piece shows a header this import reads (a zip
 * archive's directory, at its end, is checked once it is all stored); nothing is kept of a file refused or cut off.
 */
const storeFile = async (store: Store, importId: string, source: AsyncIterable<Buffer>, options: ImportOptions) => {
  let recognised: Recognised | undefined;
  let zip = false;
  let bytes = 0;
  let seq = 0;
  try {
    for await (const piece of fixedPieces(limited(source), CHUNK_BYTES)) {
      if (seq === 0) {
        zip = isZip(piece);
        recognised = zip ? undefined : recogniseFile(piece, options);
        if (!zip && !recognised) throw new AppError("validation", UNRECOGNISED);
      }
      await store.putChunk(importId, seq++, piece);
      bytes += piece.length;
    }
    if (zip) recognised = await recogniseArchive(store.rangeOf(importId), bytes);
  } catch (error) {
    await store.dropFile(importId);
    throw error instanceof UnreadableFile ? new AppError("validation", error.message) : error;
  }
  if (!recognised) throw new AppError("validation", "the file is empty");
  return { recognised, bytes };
};

export const importRoutes = ({ app, store, relay }: ServiceContext<Store>) => {
  serveOperation(app, operations.startImport, async ({ body, query, caller }) => {
    const options: ImportOptions = { tz: query.tz ?? "UTC", unit: query.unit };
    const source: AsyncIterable<Buffer> = body instanceof Readable ? body : Readable.from([Buffer.from(body.text)]);
    const id = randomUUID();
    const { recognised, bytes } = await storeFile(store, id, source, options);
    const summary = await store.createImport({
...recognised, id, accountId: caller.accountId, fileName: query.name ?? null, bytes, options });
    relay.kick();
    return summary;
  });

  serveOperation(app, operations.listImports, async ({ caller }) => ({ items: await store.listImports(caller.accountId) }));

  serveOperation(app, operations.getImport, async ({ params, caller }) => {
    const summary = await store.getImport(caller.accountId, params.id);
    if (!summary) throw new AppError("not_found", "import not found");
    return summary;
  });

  // Cancels an import still reading; else starts undoing a finished one, in steps on the work queue like its reading.
  serveOperation(app, operations.deleteImport, async ({ params, caller }) => {
    const changed = (await store.cancel(caller.accountId, params.id)) ?? (await store.startUndo(caller.accountId, params.id));
    if (changed) relay.kick();
    const summary = changed ?? (await store.getImport(caller.accountId, params.id));
    if (!summary) throw new AppError("not_found", "import not found");
    return summary;
  });
};
