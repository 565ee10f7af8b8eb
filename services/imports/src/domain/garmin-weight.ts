// Garmin Connect's account export (garmin.com → Account → Data Management → Export Your Data): a zip whose
// `DI_CONNECT/DI-Connect-Wellness/<n>_userBioMetrics.json` files each hold one JSON array of entries; an entry with
// a weigh-in carries it as an object under `weight`:
//   { "weight": { "weight": 80500.0, "bodyFat": 21.3, "timestampGMT": 1614582900000, "sourceType": "INDEX_SCALE", ... }, ... }
// The weight is in grams, body fat a percentage (0 where the scale measured none), the instant in milliseconds
// since the epoch or as an ISO time without a zone, which is GMT. Entries without a weight (height, VO2 max) are
// not weigh-ins and are passed over. Garmin documents no schema; this follows the files such exports hold.
import { ImportedWeighIn } from "@fit/contracts";
import type { RowOutcome } from "./weigh-in-csv.ts";
import { UnreadableFile } from "./csv.ts";
import { reasonOf } from "./fields.ts";

/** A userBioMetrics file of decades of daily entries is a few MiB; a larger one is not such a file. */
export const MAX_BIOMETRICS_BYTES = 32 * 1024 * 1024;

/** Whether a zip entry's name is one of the export's biometrics files. */
export const isGarminBiometrics = (path: string): boolean => /(^|\/)[^/]*userBioMetrics\.json$/i.test(path);

const ReadWeighIn = ImportedWeighIn.omit({ id: true });

const instantOf = (value: unknown): number | undefined => {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value !== "string") return undefined;
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/.test(value) ? value : `${value}Z`;
  const ms = Date.parse(zoned);
  return Number.isNaN(ms) ? undefined : ms;
};


/**
 * The weigh-ins of one userBioMetrics file, in its order, each with its entry's number (1 is the first); entries
 * that hold no weigh-in are left out. Its external id is its instant (`weigh-in:<ms>`), as a weigh-in CSV's, so the
 * same reading from another export is stored once. Throws UnreadableFile for a file that is not such an array.
 */
export const garminWeighIns = (bytes: Buffer): (RowOutcome & { entry: number })[] => {
  if (bytes.length > MAX_BIOMETRICS_BYTES) throw new UnreadableFile(`a biometrics file is larger than ${MAX_BIOMETRICS_BYTES / 1024 / 1024} MiB`);
  let entries: unknown;
  try {
    entries = JSON.parse(bytes.toString("utf8"));
  } catch {
    throw new UnreadableFile("the biometrics file is not JSON");
  }
  if (!Array.isArray(entries)) throw new UnreadableFile("the biometrics file is not a list of entries");
  return entries.flatMap((entry: unknown, i): (RowOutcome & { entry: number })[] => {
    const weight = (entry as { weight?: unknown } | null)?.weight;
    if (typeof weight !== "object" || weight === null) return [];
    const { weight: grams, bodyFat, timestampGMT } = weight as { weight?: unknown; bodyFat?: unknown; timestampGMT?: unknown };
    if (typeof grams !== "number" || grams <= 0) return [];
    const ts = instantOf(timestampGMT);
    if (ts === undefined) return [{ entry: i + 1, refused: "no time" }];
    const weightKg = Math.round(grams / 10) / 100;
    const bodyFatPct = typeof bodyFat === "number" && bodyFat > 0 ? Math.round(bodyFat * 10) / 10 : null;
    const parsed = ReadWeighIn.safeParse({ externalId: `weigh-in:${ts}`, ts, weightKg, bodyFatPct });
    return [parsed.success ? { entry: i + 1, weighIn: parsed.data } : { entry: i + 1, refused: reasonOf(parsed.error) }];
  });
};
