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

// Not closed once the directory is read: entries are inflated after it. The stored reader holds nothing to release.
const open = (range: ReadRange, size: number) =>
  wrapped(yauzl.fromRandomAccessReaderPromise(new StoredArchive(range), size, { autoClose: false, decodeStrings: true, validateEntrySizes: true, strictFileNames: true }));

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
/** Strava's activities.csv, at the top of its export or in the folder it was unpacked to and zipped again. */
const STRAVA_ACTIVITIES = /^([^/]+\/)?activities\.csv$/;

/** What an archive is, by the entry it is read from. */
export type ArchiveKind = { layout: "apple_health" | "strava"; entry: ArchiveEntry };

/**
 * What the archive is and the entry an import reads first, once its whole directory has been checked; refuses
 * (UnreadableFile) an archive that is hostile or not an export this import reads.
 */
export const readDirectory = async (range: ReadRange, size: number): Promise<ArchiveKind> => {
  const zip = await open(range, size);
  let apple: Entry | undefined;
  let strava: Entry | undefined;
  let nested: string | undefined;
  for await (const entry of entriesOf(zip)) {
    if (APPLE_EXPORT.test(entry.fileName) && (!apple || entry.fileName === "apple_health_export/export.xml")) apple = entry;
    if (STRAVA_ACTIVITIES.test(entry.fileName)) strava ??= entry;
    if (/\.zip$/i.test(entry.fileName)) nested ??= entry.fileName;
  }
  const found = apple ?? strava;
  if (!found) {
    throw refused(nested ? `it holds another archive (${nested}): send that one instead`
      : "it holds no apple_health_export/export.xml (Apple Health's export.zip) nor activities.csv (Strava's bulk export)");
  }
  if (found.isEncrypted()) throw refused(`${found.fileName} is encrypted`);
  if (found.compressionMethod !== 0 && found.compressionMethod !== 8) throw refused(`${found.fileName} is compressed with method ${found.compressionMethod}, not deflate`);
  return { layout: apple ? "apple_health" : "strava", entry: { name: found.fileName, bytes: found.uncompressedSize } };
};

/** The bytes an entry inflates to as they come, failing (UnreadableFile) past its declared size or short of it. */
async function* inflating(zip: ZipFile, entry: Entry): AsyncGenerator<Buffer> {
  const stream = await wrapped(zip.openReadStreamPromise(entry));
  try {
    for await (const piece of stream) yield piece as Buffer;
  } catch (error) {
    throw refused(`${entry.fileName}: ${(error as Error).message}`);
  }
}

/**
 * The archive's entries whose names `keep` accepts (an export's recordings), to inflate one whole at a time: its
 * bytes, or why not (none by that name, or declared larger than `maxBytes`).
 */
export const openEntries = async (range: ReadRange, size: number, keep: (name: string) => boolean) => {
  const zip = await open(range, size);
  const kept = new Map<string, Entry>();
  for await (const entry of entriesOf(zip)) if (keep(entry.fileName)) kept.set(entry.fileName, entry);
  return async (name: string, maxBytes: number): Promise<Buffer | { refused: string }> => {
    const entry = kept.get(name);
    if (!entry) return { refused: `the archive holds no ${name.slice(0, 200)}` };
    if (entry.uncompressedSize > maxBytes) return { refused: `${name.slice(0, 200)} is larger than ${maxBytes / 1024 / 1024} MiB` };
    const parts: Buffer[] = [];
    for await (const piece of inflating(zip, entry)) parts.push(piece);
    return Buffer.concat(parts);
  };
};

/**
 * The named entry's bytes, inflated: the stream fails (UnreadableFile) as soon as they go past the size its
 * directory declares (a lying header stops there), or end short of it.
 */
export async function* inflatedEntry(range: ReadRange, size: number, name: string): AsyncGenerator<Buffer> {
  const zip = await open(range, size);
  for await (const entry of entriesOf(zip)) {
    if (entry.fileName !== name) continue;
    yield* inflating(zip, entry);
    return;
  }
  throw refused(`${name} is no longer in it`);
}
