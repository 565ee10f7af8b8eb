// Zip archives read from the stored upload by random access (docs/decisions/0078-apple-health-and-archives.md):
// the central directory is read whole, and the archive refused before anything is inflated if it is hostile;
// then the one entry an import reads (each part of Garmin's uploads in turn) is inflated once, its output held to
// the size its directory declares.
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

/**
 * Every entry of the directory, in order, each checked as it is read; `declaredBefore` is what the archive holding
 * this one and the parts before it declared (a part of a Garmin export's uploads counts against the same total).
 */
async function* entriesOf(zip: ZipFile, declaredBefore = 0): AsyncGenerator<Entry> {
  if (zip.entryCount > MAX_ENTRIES) throw refused(`${zip.entryCount} entries, more than ${MAX_ENTRIES}`);
  let declared = declaredBefore;
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

/**
 * Garmin Connect's export: the zips of the files its devices uploaded, the one place a zip inside a zip is read
 * (docs/decisions/0078-apple-health-and-archives.md, addendum), and its weigh-ins.
 */
const GARMIN_UPLOADS = /^([^/]+\/)?DI_CONNECT\/DI-Connect-Uploaded-Files\/[^/]+\.zip$/i;
const GARMIN_BIOMETRICS = /^([^/]+\/)?DI_CONNECT\/DI-Connect-Wellness\/[^/]*userBioMetrics\.json$/i;
const isZipName = (name: string) => /\.zip$/i.test(name);

/**
 * What an archive is, by the entry it is read from. Garmin's names its zips of uploaded files, Part1, Part2, … (none
 * when the export holds only weigh-ins), each inflated and read in turn, and what its whole directory declares.
 */
export type ArchiveKind =
  | { layout: "apple_health"; entry: ArchiveEntry }
  | { layout: "strava"; entry: ArchiveEntry }
  | { layout: "garmin"; parts: ArchiveEntry[]; declared: number };

const checkedEntry = (found: Entry): ArchiveEntry => {
  if (found.isEncrypted()) throw refused(`${found.fileName} is encrypted`);
  if (found.compressionMethod !== 0 && found.compressionMethod !== 8) throw refused(`${found.fileName} is compressed with method ${found.compressionMethod}, not deflate`);
  return { name: found.fileName, bytes: found.uncompressedSize };
};

/**
 * What the archive is and the entry an import reads first, once its whole directory has been checked; refuses
 * (UnreadableFile) an archive that is hostile or not an export this import reads.
 */
export const readDirectory = async (range: ReadRange, size: number): Promise<ArchiveKind> => {
  const zip = await open(range, size);
  let apple: Entry | undefined;
  let strava: Entry | undefined;
  let nested: string | undefined;
  const uploads: Entry[] = [];
  let biometrics = false;
  let declared = 0;
  for await (const entry of entriesOf(zip)) {
    declared += entry.uncompressedSize;
    if (APPLE_EXPORT.test(entry.fileName) && (!apple || entry.fileName === "apple_health_export/export.xml")) apple = entry;
    if (STRAVA_ACTIVITIES.test(entry.fileName)) strava ??= entry;
    if (GARMIN_UPLOADS.test(entry.fileName)) uploads.push(entry);
    else if (isZipName(entry.fileName)) nested ??= entry.fileName;
    if (GARMIN_BIOMETRICS.test(entry.fileName)) biometrics = true;
  }
  if (apple) return { layout: "apple_health", entry: checkedEntry(apple) };
  if (strava) return { layout: "strava", entry: checkedEntry(strava) };
  if (uploads.length || biometrics) {
    // Part1, Part2, …, Part10 in the order of their names' numbers.
    const parts = uploads.sort((a, b) => a.fileName.localeCompare(b.fileName, "en", { numeric: true })).map(checkedEntry);
    return { layout: "garmin", parts, declared };
  }
  throw refused(nested ? `it holds another archive (${nested}): send that one instead`
    : "it holds no apple_health_export/export.xml (Apple Health's export.zip), activities.csv (Strava's bulk export) nor " +
      "DI_CONNECT/ (Garmin Connect's export)");
};

/**
 * A part of a Garmin export's uploaded files, once inflated: its directory is checked with the caps of any archive,
 * counted on from what the export and the parts before it declared, and a zip inside it is refused (one level of
 * nesting only). Returns that total with this part's entries added, for the next part to count on from.
 */
export const checkNestedDirectory = async (range: ReadRange, size: number, declaredBefore: number) => {
  const zip = await open(range, size);
  let declared = declaredBefore;
  for await (const entry of entriesOf(zip, declaredBefore)) {
    if (isZipName(entry.fileName)) throw refused(`it holds an archive inside its uploaded files (${entry.fileName})`);
    declared += entry.uncompressedSize;
  }
  return declared;
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
  /** The kept entries' names in the directory's order, each with the offset just past its compressed bytes. */
  const names = [...kept.values()].map((entry) => ({ name: entry.fileName, end: entry.relativeOffsetOfLocalHeader + entry.compressedSize }));
  const read = async (name: string, maxBytes: number): Promise<Buffer | { refused: string }> => {
    const entry = kept.get(name);
    if (!entry) return { refused: `the archive holds no ${name.slice(0, 200)}` };
    if (entry.uncompressedSize > maxBytes) return { refused: `${name.slice(0, 200)} is larger than ${maxBytes / 1024 / 1024} MiB` };
    const parts: Buffer[] = [];
    for await (const piece of inflating(zip, entry)) parts.push(piece);
    return Buffer.concat(parts);
  };
  return { names, read };
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
