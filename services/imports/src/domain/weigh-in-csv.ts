// Weigh-in exports of scales and weight apps, recognised by their header (docs/decisions/0076-imports-as-background-jobs.md):
//   Withings     Date,"Weight (kg)","Fat mass (kg)","Bone mass (kg)","Muscle mass (kg)","Hydration (kg)",Comments
//   Fitbit       Date,Weight,BMI,Fat                      (optionally under a "Body" title; unit from `unit`)
//   Renpho       Time of Measurement,Weight(kg),BMI,Body Fat(%),...   (or Date,Time,Weight(lb),...)
//   Libra        #Units:kg metadata, then #date;weight;weight trend;body fat;...
//   Happy Scale  Date,Weight[,Body Fat]                   (and any other date + weight file; unit from `unit`)
//   fit's own    time,weight_kg[,body_fat_pct]            (what `fit import` documented before imports ran here)
import type { z } from "zod";
import { ImportedWeighIn, type ImportLayout } from "@fit/contracts";
import { kgOf } from "@fit/units";
import { fieldsOf, type CsvRecord } from "./csv.ts";
import { numberOf, reasonOf } from "./fields.ts";
import { instantOf } from "./local-time.ts";

type Unit = "kg" | "lb";

/**
 * What the header says about the rows below it; stored with the import (as JSON, hence a type and not an
 * interface), so every step reads rows alike.
 */
export type WeighInFormat = {
  layout: ImportLayout;
  delimiter: string;
  date: number;
  /** A separate time-of-day column. */
  clock: number | null;
  weight: number;
  unit: Unit;
  fat: { column: number; as: "mass" | "percent"; unit: Unit } | null;
};

export type ImportOptions = {
  tz: string;
  unit?: Unit;
};

/** Where the rows start: the byte offset and line after the header. */
export interface Recognised {
  format: WeighInFormat;
  offset: number;
  line: number;
}

const HEAD_LINES = 12;

const normalized = (name: string) => name.toLowerCase().replace(/^#/, "").replace(/[\s_]+/g, " ").replace(/\s*\(\s*/g, " (").trim();

const DATE_NAMES = ["date", "date time", "datetime", "timestamp", "time of measurement", "measurement time", "measured at"];
const UNIT_OF: Record<string, Unit> = { kg: "kg", kgs: "kg", lb: "lb", lbs: "lb" };
const WEIGHT = /^(?:body )?weight(?: \((kg|kgs|lb|lbs)\)| (kg|kgs|lb|lbs))?$/;
const FAT_MASS = /^fat mass(?: \((kg|kgs|lb|lbs)\))?$/;
const FAT_PERCENT = /^(?:body )?fat(?: \(%\)| %| percent(?:age)?| pct| ratio)?$|^body fat percentage$/;

const delimiterOf = (line: string) => {
  const counts = [",", ";", "\t"].map((d) => [d, line.split(d).length] as const);
  return counts.reduce((best, next) => (next[1] > best[1] ? next : best))[0];
};

/** The header's columns as a format, or undefined when they name no date and weight. */
const formatOf = (fields: string[], delimiter: string, metaUnit: Unit | undefined, options: ImportOptions): WeighInFormat | undefined => {
  const names = fields.map(normalized);
  const find = (test: (name: string) => boolean) => {
    const index = names.findIndex(test);
    return index === -1 ? null : index;
  };
  const date = find((n) => DATE_NAMES.includes(n)) ?? find((n) => n === "time");
  const weight = find((n) => WEIGHT.test(n));
  if (date === null || weight === null) return undefined;
  const clock = names[date] === "time" ? null : find((n) => n === "time");
  const weightMatch = WEIGHT.exec(names[weight]!)!;
  const named = weightMatch[1] ?? weightMatch[2];
  const unit = (named ? UNIT_OF[named] : undefined) ?? metaUnit ?? options.unit ?? "kg";
  const mass = find((n) => FAT_MASS.test(n));
  const percent = find((n) => FAT_PERCENT.test(n));
  const massUnit = mass === null ? undefined : FAT_MASS.exec(names[mass]!)![1];
  const fat = mass !== null
    ? { column: mass, as: "mass" as const, unit: (massUnit ? UNIT_OF[massUnit] : undefined) ?? unit }
    : percent !== null ? { column: percent, as: "percent" as const, unit } : null;
  const has = (name: string) => names.includes(name);
  const layout: ImportLayout =
    mass !== null || has("bone mass (kg)") || has("bone mass (lb)") ? "withings"
    : has("weight trend") ? "libra"
    : has("time of measurement") || names.some((n) => n.endsWith("(%)")) || has("bmr") ? "renpho"
    : has("bmi") && names.length <= 5 ? "fitbit"
    : "happy_scale";
  return { layout, delimiter, date, clock, weight, unit, fat };
};

/**
 * Finds the header in the file's first bytes: lines before it may be blank, `#key:value` metadata (Libra's
 * `#Units:lb`) or a one-word title (Fitbit's `Body`). Undefined when no line of the first few names a date and
 * a weight.
 */
export const recogniseWeighIns = (head: Buffer, options: ImportOptions): Recognised | undefined => {
  let offset = head.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf])) ? 3 : 0;
  let metaUnit: Unit | undefined;
  for (let line = 1; line <= HEAD_LINES; line++) {
    const end = head.indexOf(0x0a, offset);
    if (end === -1) return undefined;
    const text = head.subarray(offset, end).toString("utf8").replace(/\r$/, "").trim();
    offset = end + 1;
    const meta = /^#\s*units?\s*:\s*(kg|kgs|lb|lbs)\s*$/i.exec(text);
    if (meta) metaUnit = UNIT_OF[meta[1]!.toLowerCase()];
    if (text === "" || meta || /^#[^;,\t]*:/.test(text)) continue;
    const delimiter = delimiterOf(text);
    const format = formatOf(fieldsOf(text, delimiter), delimiter, metaUnit, options);
    if (format) return { format, offset, line: line + 1 };
    if (fieldsOf(text, delimiter).length > 1) return undefined;
  }
  return undefined;
};

const toKg = (value: number, unit: Unit) => kgOf({ value, unit }, "metric");

/** A row as read; the import gives it its id. */
const ReadWeighIn = ImportedWeighIn.omit({ id: true });
type WeighIn = z.output<typeof ReadWeighIn>;
export type RowOutcome = { weighIn: WeighIn } | { refused: string };

/**
 * One data row as a weigh-in, or why it cannot be one. Its external id is the reading's instant: the same reading
 * from this file, or another export of it, is stored once.
 */
export const weighInOf = (record: CsvRecord, format: WeighInFormat, options: ImportOptions): RowOutcome => {
  const fields = fieldsOf(record.text, format.delimiter);
  const dateText = fields[format.date] ?? "";
  const ts = instantOf(dateText, format.clock === null ? null : (fields[format.clock] ?? null), options.tz);
  if (ts === undefined) return { refused: `"${dateText.slice(0, 40)}" is not a date this import reads` };
  const weight = numberOf(fields[format.weight]);
  if (weight === undefined) return { refused: "no weight" };
  const weightKg = toKg(weight, format.unit);
  const fatValue = format.fat ? numberOf(fields[format.fat.column]) : undefined;
  // Apps write 0 where the scale measured no body fat.
  const bodyFatPct = !format.fat || !fatValue
    ? null
    : format.fat.as === "percent" ? fatValue : Math.round((toKg(fatValue, format.fat.unit) / weightKg) * 1000) / 10;
  const parsed = ReadWeighIn.safeParse({ externalId: `weigh-in:${ts}`, ts, weightKg, bodyFatPct });
  if (!parsed.success) return { refused: reasonOf(parsed.error) };
  return { weighIn: parsed.data };
};
