import type { ImportKind } from "@fit/contracts";
import { isAppleExport, type AppleFormat } from "./apple-health.ts";
import { readDirectory, type ArchiveEntry, type ArchiveKind, type ReadRange } from "./archive.ts";
import { recogniseFoodDiary, type FoodDiaryFormat } from "./food-diary-csv.ts";
import { recogniseWeighIns, type ImportOptions, type WeighInFormat } from "./weigh-in-csv.ts";

/** The kind of file the upload's first bytes show, its header's format (stored with the import) and where its rows start. */
export type Recognised = { offset: number; line: number } & (
  | { kind: Extract<ImportKind, "weigh-ins">; format: WeighInFormat }
  | { kind: Extract<ImportKind, "food">; format: FoodDiaryFormat }
  | { kind: Extract<ImportKind, "health-export">; format: AppleFormat }
  | { kind: Extract<ImportKind, "activities">; format: { layout: "strava"; entry: ArchiveEntry } | GarminFormat }
);

/** Garmin Connect's export: its zips of uploaded files (the parts, each inflated in turn) and the export's declared total. */
export type GarminFormat = Extract<ArchiveKind, { layout: "garmin" }>;

type Format = Recognised["format"];

/**
 * The archive entry an import inflates and reads at `part`: an export's one entry, or the Garmin part it is at;
 * none for a file sent alone or a Garmin export of weigh-ins only.
 */
export const entryAt = (format: Format, part: number): ArchiveEntry | undefined =>
  "parts" in format ? format.parts[part] : "entry" in format ? format.entry : undefined;

/** The Garmin part read after `part`, if there is one. */
export const partAfter = (format: Format, part: number) => ("parts" in format && part + 1 < format.parts.length ? part + 1 : undefined);

const sum = (entries: ArchiveEntry[]) => entries.reduce((total, entry) => total + entry.bytes, 0);

/**
 * How far an unfinished import has read, 0 to 1: the checkpoint's offset in the upload, or in its archive's
 * entry once inflated; for Garmin's parts, the bytes of the parts read before `part` and the offset in it, over
 * all of them.
 */
export const progressOf = (format: Format, bytes: number, part: number, offset: number) => {
  const [before, total] = "parts" in format ? [sum(format.parts.slice(0, part)), sum(format.parts)]
    : [0, "entry" in format && format.entry ? format.entry.bytes : bytes];
  return total === 0 ? 1 : Math.min(1, (before + offset) / total);
};

export const recogniseFile = (head: Buffer, options: ImportOptions): Recognised | undefined => {
  if (isAppleExport(head)) return { kind: "health-export", format: { layout: "apple_health" }, offset: 0, line: 1 };
  const weighIns = recogniseWeighIns(head, options);
  if (weighIns) return { kind: "weigh-ins", ...weighIns };
  const food = recogniseFoodDiary(head);
  return food && { kind: "food", ...food };
};

const ZIP = Buffer.from("PK\x03\x04", "latin1");

/** Whether the upload's first bytes are a zip archive's: what it holds is only known once it is all stored. */
export const isZip = (head: Buffer) => head.subarray(0, ZIP.length).equals(ZIP);

/**
 * A stored zip archive, once its directory has been checked: Apple Health's export.zip, read as the export.xml it
 * holds, Strava's bulk export, read from its activities.csv (whose header is read with its first rows), or Garmin
 * Connect's export, read from its weigh-ins and the zip of its uploaded files.
 */
export const recogniseArchive = async (range: ReadRange, size: number): Promise<Recognised> => {
  const format = await readDirectory(range, size);
  return format.layout === "apple_health"
    ? { kind: "health-export", format: { layout: format.layout, entry: format.entry }, offset: 0, line: 1 }
    : { kind: "activities", format, offset: 0, line: 1 };
};

export const UNRECOGNISED = "the file's header is not one of an export this import reads: a weigh-in export (Withings, Fitbit, " +
  "Renpho, Libra, Happy Scale: a date and a weight column), a food diary (MyFitnessPal's nutrition export, Cronometer's servings " +
  "or daily summary) or an Apple Health export (export.zip or the export.xml inside it)";
