import { WeightCreate } from "@fit/contracts";
import { parse } from "csv-parse/sync";
import type { z } from "zod";
import { decimal } from "./args.ts";
import { CliError, exitCodes, refused } from "./exit.ts";

export type WeighIn = z.output<typeof WeightCreate>;

/**
 * A spreadsheet's weigh-ins: a header row naming `time` (ISO 8601; a day alone is 00:00 UTC) and `weight_kg`,
 * optionally `body_fat_pct` and `note`, in any order; a header separated by semicolons makes them the separator,
 * as spreadsheets write where the decimal separator is a comma (`81,5`, read as everywhere else). Every row is
 * checked against the contract before the first is sent, so a bad row stops the import with its line number
 * instead of half-importing the file.
 */
export const parseWeighIns = (file: string, text: string): WeighIn[] => {
  let records: Record<string, string>[];
  try {
    const delimiter = /^[^\n]*;/.test(text) ? ";" : ",";
    records = parse(text, { delimiter, columns: (header: string[]) => header.map((h) => h.trim().toLowerCase()), skip_empty_lines: true, trim: true });
  } catch (error) {
    throw new CliError(`${file}: ${(error as Error).message}`, exitCodes.usage);
  }
  return records.map((record, index) => {
    const line = index + 2;
    const missing = ["time", "weight_kg"].filter((column) => !(column in record));
    if (missing.length > 0) throw new CliError(`${file}: the header must name ${missing.join(" and ")}`, exitCodes.usage);
    const ts = Date.parse(record.time ?? "");
    if (Number.isNaN(ts)) throw new CliError(`${file}, line ${line}: time must be ISO 8601 (2026-11-25T07:30)`, exitCodes.usage);
    const fat = record.body_fat_pct;
    const parsed = WeightCreate.safeParse({
      ts,
      weightKg: decimal(record.weight_kg ?? ""),
      bodyFatPct: fat ? decimal(fat) : undefined,
      note: record.note || undefined,
    });
    if (!parsed.success) throw refused(parsed.error, `${file}, line ${line}: `);
    return parsed.data;
  });
};
