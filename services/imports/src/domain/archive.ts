// Zip archives read from the stored upload by random access (docs/decisions/0078-apple-health-and-archives.md):
// the central directory is read whole, and the archive refused before anything is inflated if it is hostile;
// then the one entry an import reads is inflated once, its output held to the size its directory declares.
import { Readable } from "node:stream";
import yauzl, { type Entry, type ZipFile } from "yauzl";
import { UnreadableFile } from "./csv.ts";

const MAX_ENTRIES = 100_000;
/** The most an archive's entries may declare together, uncompressed. */
const MAX_INFLATED_BYTES = 4 * 1024 ** 3;
/** An entry compressing more than this is a zip bomb: Apple's export.xml compresses about 15:1. */
const MAX_RATIO = 200;
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

/** The bytes of the stored archive from `start` to `end` (exclusive), in pieces. */
export type ReadRange = (start: number, end: number) => AsyncIterable<Buffer>;

/** The entry of an archive an import reads: its name, and its size inflated as the directory declares it. */
export type ArchiveEntry = {
  name: string;
  bytes: number;
};

class StoredArchive extends yauzl.RandomAccessReader {
  constructor(private readonly range: ReadRange) {
    super();
  }

  override _readStreamForRange(start: number, end: number) {
    return Readable.from(this.range(start, end));
  }
}

const refused = (why: string) => new UnreadableFile(`the archive is refused: ${why}`);

/** yauzl's own refusals (a name absolute or climbing out with `..`, a broken directory) carry their reason. */
const wrapped = <T>(reading: Promise<T>) => reading.catch((error: unknown) => {
  throw error instanceof UnreadableFile ? error : refused((error as Error).message);
});

const open = (range: ReadRange, size: number) =>
  wrapped(yauzl.fromRandomAccessReaderPromise(new StoredArchive(range), size, { decodeStrings: true, validateEntrySizes: true, strictFileNames: true }));

/** Every entry of the directory, in order, each checked as it is read. */
async function* entriesOf(zip: ZipFile): AsyncGenerator<Entry> {
  if (zip.entryCount > MAX_ENTRIES) throw refused(`${zip.entryCount} entries, more than ${MAX_ENTRIES}`);
  let declared = 0;
  const entries = zip.eachEntry();
  for (;;) {
    const next = await wrapped(entries.next());
    if (next.done) return;
    const entry = next.value;
    if (((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK) throw refused(`${entry.fileName} is a symbolic link`);
    if (entry.uncompressedSize > MAX_RATIO * Math.max(entry.compressedSize, 1)) {
      throw refused(`${entry.fileName} would inflate more than ${MAX_RATIO} times its compressed size`);
    }
    declared += entry.uncompressedSize;
    if (declared > MAX_INFLATED_BYTES) throw refused(`its entries would inflate to more than ${MAX_INFLATED_BYTES / 1024 ** 3} GiB`);
    yield entry;
  }
}

/** Apple Health's export.xml, in its `apple_health_export/` folder or another one a person renamed. */
const APPLE_EXPORT = /^([^/]+\/)?export\.xml$/;

/**
 * The entry of the archive an import reads, once its whole directory has been checked; refuses (UnreadableFile)
 * an archive that is hostile or not an export this import reads.
 */
export const archiveEntry = async (range: ReadRange, size: number): Promise<ArchiveEntry> => {
  const zip = await open(range, size);
  let found: Entry | undefined;
  let nested: string | undefined;
  for await (const entry of entriesOf(zip)) {
    if (APPLE_EXPORT.test(entry.fileName) && (!found || entry.fileName === "apple_health_export/export.xml")) found = entry;
    if (/\.zip$/i.test(entry.fileName)) nested ??= entry.fileName;
  }
  if (!found) {
    throw refused(nested ? `it holds another archive (${nested}): send that one instead` : "it holds no apple_health_export/export.xml (Apple Health's export.zip)");
  }
  if (found.isEncrypted()) throw refused(`${found.fileName} is encrypted`);
  if (found.compressionMethod !== 0 && found.compressionMethod !== 8) throw refused(`${found.fileName} is compressed with method ${found.compressionMethod}, not deflate`);
  return { name: found.fileName, bytes: found.uncompressedSize };
};

/**
 * The named entry's bytes, inflated: the stream fails (UnreadableFile) as soon as they go past the size its
 * directory declares (a lying header stops there), or end short of it.
 */
export async function* inflatedEntry(range: ReadRange, size: number, name: string): AsyncGenerator<Buffer> {
  const zip = await open(range, size);
  for await (const entry of entriesOf(zip)) {
    if (entry.fileName !== name) continue;
    const stream = await wrapped(zip.openReadStreamPromise(entry));
    try {
      for await (const piece of stream) yield piece as Buffer;
    } catch (error) {
      throw refused(`${name}: ${(error as Error).message}`);
    }
    return;
  }
  throw refused(`${name} is no longer in it`);
}
