// Food diary exports, recognised by their header (docs/decisions/0081-food-diary-imports.md):
//   MyFitnessPal  Date,Meal[,Time],Calories,Fat (g),...,Carbohydrates (g),Fiber,Sugar,Protein (g),...,Note
//                 (the premium "Nutrition" export: one row of totals per meal per day, no foods)
//   Cronometer    Day,Time,Group,Food Name,Amount,Energy (kcal),...,Carbs (g),Fiber (g),...,Fat (g),...,Protein (g),...
//                 (servings.csv, "Food & Recipe Entries": one row per food eaten)
//   Cronometer    Date,Energy (kcal),...,Protein (g),...,Completed   (dailysummary.csv: one row of totals per day)
import { createHash } from "node:crypto";
import type { z } from "zod";
import { ImportedFoodItem, type Meal } from "@fit/contracts";
import { fieldsOf, type CsvRecord } from "./csv.ts";
import { numberOf, reasonOf } from "./fields.ts";
import { instantOf } from "./local-time.ts";

type FoodDiaryLayout = "myfitnesspal" | "cronometer";

/** What the header says about the rows below it; stored with the import as JSON. */
export type FoodDiaryFormat = {
  layout: FoodDiaryLayout;
  /** `meals`: a row is a meal's totals; `foods`: a food eaten; `days`: a day's totals. */
  rows: "meals" | "foods" | "days";
  delimiter: string;
  date: number;
  meal: number | null;
  name: number | null;
  amount: number | null;
  energy: { column: number; unit: "kcal" | "kJ" };
  protein: number;
  carbs: number | null;
  fat: number | null;
  fiber: number | null;
};

const normalized = (name: string) => name.toLowerCase().replace(/\s+/g, " ").trim();
const KJ_PER_KCAL = 4.184;

const formatOf = (fields: string[], delimiter: string): FoodDiaryFormat | undefined => {
  const names = fields.map(normalized);
  const find = (...candidates: string[]) => {
    const index = names.findIndex((name) => candidates.includes(name));
    return index === -1 ? null : index;
  };
  const protein = find("protein (g)", "protein");
  const kcal = find("calories", "energy (kcal)");
  const kJ = find("energy (kj)");
  const energy = kcal !== null ? { column: kcal, unit: "kcal" as const } : kJ !== null ? { column: kJ, unit: "kJ" as const } : null;
  if (protein === null || energy === null) return undefined;
  const columns = { delimiter, energy, protein, carbs: find("carbohydrates (g)", "carbs (g)"), fat: find("fat (g)"), fiber: find("fiber", "fiber (g)") };
  const day = find("day");
  const foodName = find("food name");
  if (day !== null && foodName !== null) {
    return { layout: "cronometer", rows: "foods", date: day, meal: find("group"), name: foodName, amount: find("amount"), ...columns };
  }
  const date = find("date");
  if (date === null) return undefined;
  const meal = find("meal");
  if (meal !== null) return { layout: "myfitnesspal", rows: "meals", date, meal, name: null, amount: null, ...columns };
  if (energy.unit === "kJ" || names[energy.column] === "energy (kcal)") {
    return { layout: "cronometer", rows: "days", date, meal: null, name: null, amount: null, ...columns };
  }
  return undefined;
};

/** Where the rows start: the header is the file's first line that is not blank. */
export const recogniseFoodDiary = (head: Buffer): { format: FoodDiaryFormat; offset: number; line: number } | undefined => {
  let offset = head.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf])) ? 3 : 0;
  for (let line = 1; ; line++) {
    const end = head.indexOf(0x0a, offset);
    if (end === -1) return undefined;
    const text = head.subarray(offset, end).toString("utf8").replace(/\r$/, "").trim();
    offset = end + 1;
    if (text === "") continue;
    const delimiter = text.split(";").length > text.split(",").length ? ";" : ",";
    const format = formatOf(fieldsOf(text, delimiter), delimiter);
    return format && { format, offset, line: line + 1 };
  }
};

const MEALS: Record<string, Meal> = {
  breakfast: "breakfast", lunch: "lunch", dinner: "dinner", supper: "dinner", snack: "snack", snacks: "snack",
};

const LAYOUT_NAME: Record<FoodDiaryLayout, string> = { myfitnesspal: "MyFitnessPal", cronometer: "Cronometer" };

/** "150.00 g", "1.00 cup" or "2 x large": the amount eaten, when it reads as one. */
const amountOf = (text: string | undefined) => {
  const match = /^\s*(\d+(?:[.,]\d+)?)\s*(.{1,30}?)\s*$/.exec(text ?? "");
  const quantity = numberOf(match?.[1]);
  return quantity && match ? { quantity, unit: match[2] || null } : { quantity: null, unit: null };
};

const ReadFoodItem = ImportedFoodItem.omit({ id: true });
type DiaryItem = z.output<typeof ReadFoodItem>;
export type FoodRowOutcome = { item: DiaryItem } | { refused: string };

/** The diary's calendar day: the date as written (a diary day has no zone), year-first or US order. */
const dayOf = (text: string) => {
  const noon = instantOf(text, null, "UTC");
  return noon === undefined ? undefined : new Date(noon).toISOString().slice(0, 10);
};

const grams = (fields: string[], column: number | null) => (column === null ? null : (numberOf(fields[column]) ?? null));

/**
 * One data row as a food item, or why it cannot be one. Its external id names the entry (the day, the meal and,
 * for a food, its name and amount), so the same entry from another export of the same diary is stored once; an
 * entry written twice in a day is told apart by the caller (`occurrence`).
 */
export const foodItemOf = (record: CsvRecord, format: FoodDiaryFormat): FoodRowOutcome => {
  const fields = fieldsOf(record.text, format.delimiter);
  const dateText = fields[format.date] ?? "";
  const date = dayOf(dateText);
  if (date === undefined) return { refused: `"${dateText.slice(0, 40)}" is not a date this import reads` };
  const energy = numberOf(fields[format.energy.column]);
  if (energy === undefined) return { refused: "no energy" };
  const kcal = Math.round((format.energy.unit === "kJ" ? energy / KJ_PER_KCAL : energy) * 10) / 10;
  const mealText = format.meal === null ? "" : (fields[format.meal] ?? "").trim();
  const meal = MEALS[mealText.toLowerCase()] ?? null;
  const source = LAYOUT_NAME[format.layout];
  const food = format.name === null ? "" : (fields[format.name] ?? "").trim();
  const name = format.rows === "foods" ? food : format.rows === "meals" ? `${mealText || "Meal"} (${source} totals)` : `Day total (${source})`;
  const amount = amountOf(format.amount === null ? undefined : fields[format.amount]);
  const entry = format.rows === "days" ? [] : format.rows === "meals" ? [mealText.toLowerCase()] : [mealText.toLowerCase(), food, fields[format.amount ?? -1] ?? ""];
  const parsed = ReadFoodItem.safeParse({
    externalId: [`${format.layout}-${format.rows}`, date, ...(entry.length ? [createHash("sha256").update(entry.join("\n")).digest("base64url").slice(0, 22)] : [])].join(":"),
    date, name, kcal, meal,
    proteinG: numberOf(fields[format.protein]) ?? 0,
    carbsG: grams(fields, format.carbs),
    fatG: grams(fields, format.fat),
    fiberG: grams(fields, format.fiber),
    ...amount,
  });
  if (!parsed.success) return { refused: reasonOf(parsed.error) };
  return { item: parsed.data };
};
