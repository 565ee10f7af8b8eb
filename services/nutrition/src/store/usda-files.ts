// Reads the USDA SR Legacy extract committed in services/nutrition/usda/ (PROVENANCE.md there says what it is).
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { gunzipSync } from "node:zlib";

const DATA = new URL("../../usda/", import.meta.url);
const [QUOTE, COMMA, NEWLINE, RETURN] = [34, 44, 10, 13];
const FILES = { foods: "usda-sr-legacy.csv.gz", portions: "usda-sr-legacy-portions.csv.gz", caveats: "usda-sr-legacy-caveats.csv.gz" };

/**
 * RFC 4180 rows: fields in double quotes may hold commas, and "" stands for a quote. A field is added to in runs
 * (`text.slice`), not a character at a time: the characters one by one made each field a rope of one node per
 * character: 27-31 MB of heap for the extract's 22 000 rows, 9-10 MB in runs (docs/performance.md).
 */
const parseCsv = (text: string): string[][] => {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  /** Where the characters not yet added to `field` begin. */
  let run = 0;
  const take = (end: number) => {
    if (end > run) field += text.slice(run, end);
  };
  const endField = (end: number) => {
    take(end);
    row.push(field);
    field = "";
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (quoted) {
      if (c !== QUOTE) continue;
      take(i);
      if (text.charCodeAt(i + 1) === QUOTE) field += text[++i];
      else quoted = false;
    } else if (c === QUOTE) {
      take(i);
      quoted = true;
    } else if (c === COMMA) endField(i);
    else if (c === NEWLINE) {
      endField(i);
      rows.push(row);
      row = [];
    } else if (c === RETURN) take(i);
    else continue;
    run = i + 1;
  }
  take(text.length);
  if (field !== "" || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
};

/** The rows of a CSV file under its header's names, checked to be the columns expected. */
const records = (text: string, columns: readonly string[]) => {
  const [header, ...rows] = parseCsv(text);
  if (header?.join(",") !== columns.join(",")) throw new Error(`expected columns ${columns.join(",")}, found ${header?.join(",")}`);
  return rows.map((row) => Object.fromEntries(columns.map((name, i) => [name, row[i] ?? ""])) as Record<string, string>);
};

/** A blank cell is a value the source does not have: null, never 0. */
const amount = (cell: string) => (cell === "" ? null : Number(cell));

const FOOD_COLUMNS = ["fdc_id", "ndb_number", "description", "category", "kcal", "protein_g", "fat_g", "carbs_g", "fiber_g", "sugars_g", "sodium_mg"] as const;

/** A version that changes whenever a file's bytes do, and the files' rows, parsed only when asked for. */
export const readUsdaFiles = async () => {
  const raw = Object.fromEntries(
    await Promise.all(Object.entries(FILES).map(async ([key, name]) => [key, await readFile(new URL(name, DATA))] as const)),
  ) as Record<keyof typeof FILES, Buffer>;
  const version = createHash("sha256");
  for (const bytes of Object.values(raw)) version.update(bytes);
  return { version: version.digest("hex").slice(0, 16), rows: () => parseUsdaFiles(raw) };
};

const parseUsdaFiles = (raw: Record<keyof typeof FILES, Buffer>) => {
  const text = (bytes: Buffer) => gunzipSync(bytes).toString("utf8");
  const caveats = new Map<string, string>();
  for (const row of records(text(raw.caveats), ["fdc_id", "ndb_number", "caveat"])) {
    caveats.set(row.fdc_id!, caveats.has(row.fdc_id!) ? `${caveats.get(row.fdc_id!)}; ${row.caveat}` : row.caveat!);
  }
  const foods = records(text(raw.foods), FOOD_COLUMNS).map((row) => ({
    fdcId: row.fdc_id!,
    description: row.description!,
    category: row.category!,
    kcal: amount(row.kcal!),
    proteinG: amount(row.protein_g!),
    fatG: amount(row.fat_g!),
    carbsG: amount(row.carbs_g!),
    fiberG: amount(row.fiber_g!),
    sugarsG: amount(row.sugars_g!),
    sodiumMg: amount(row.sodium_mg!),
    caveat: caveats.get(row.fdc_id!) ?? null,
  }));
  const portions = records(text(raw.portions), ["fdc_id", "amount", "unit", "gram_weight"]).map((row) => ({
    fdcId: row.fdc_id!,
    amount: Number(row.amount),
    unit: row.unit!,
    gramWeight: Number(row.gram_weight),
  }));
  return { foods, portions };
};

/** The extract's foods and portions as `rows()` gives them. */
export type UsdaRows = ReturnType<typeof parseUsdaFiles>;
