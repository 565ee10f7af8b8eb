import type { FoodEstimate, LabelFields } from "@fit/contracts";
import { fixDigits, type ReadLine } from "@fit/photos";

export interface LabelReading extends LabelFields {
  /** Fields read from an unsure line, or that do not fit the others. */
  lowConfidence: string[];
  /** What the amount eaten needs and the label did not show. */
  missing: string[];
}

const SURE_LINE = 70;
const KJ_PER_KCAL = 4.184;

/**
 * Grams on a line: "30g", "30 g", "8.1 g", "(28g)". OCR reads a "g" glued to its number as "9" ("5g" → "59"):
 * a number ending in 9 with no gram sign anywhere on a line that must state grams is read as that number and "g".
 */
const gramsOn = (line: string): number | null => {
  const withUnit = /(\d+(?:[.,]\d+)?)\s*g\b/i.exec(line);
  if (withUnit) return Number(withUnit[1]!.replace(",", "."));
  const bare = /(\d+(?:[.,]\d+)?)/.exec(line);
  if (!bare) return null;
  const digits = bare[1]!;
  return /^\d+9$/.test(digits) ? Number(digits.slice(0, -1)) : Number(digits.replace(",", "."));
};

const numberAfter = (pattern: RegExp, line: string): number | null => {
  const match = pattern.exec(line);
  return match ? Number(match[1]!.replace(",", ".")) : null;
};

/**
 * A nutrition-facts label's text → its energy and protein, per 100 g (EU: "per 100 g", "Energy 1046 kJ / 250 kcal",
 * "Protein 8.1 g") or per serving (US: "Serving size 30g", "Calories 120", "Protein 5g"), with fat and carbohydrate
 * when shown. kJ and kcal stated together check each other; the macros' energy cannot pass the total. A value from an unsure line is kept and flagged; one
 * that fails a check is left out, so the amount eaten cannot be computed from it (a 422, never a wrong number).
 */
export const readLabel = (lines: readonly ReadLine[]): LabelReading => {
  const fixed = lines.map((line) => ({ text: fixDigits(line.text), confidence: line.confidence }));
  const all = fixed.map((line) => line.text).join("\n");
  const basis = /per\s*100\s*[g9]|100\s*g\b/i.test(all) && !/calories\s+\d/i.test(all) ? "100g" : "serving";
  const values: LabelFields["values"] = { kcal: null, proteinG: null, fatG: null, carbsG: null };
  let servingG: number | null = null;
  const unsure = new Set<string>();
  const flagIfUnsure = (field: string, confidence: number) => confidence < SURE_LINE && unsure.add(field);

  for (const { text, confidence } of fixed) {
    if (servingG === null && /serving|portion/i.test(text) && /\d/.test(text) && !/per\s*serving|servings per/i.test(text)) {
      servingG = numberAfter(/\((\d+(?:[.,]\d+)?)\s*[g9]\)/i, text) ?? gramsOn(text.replace(/^[^\d]*/, ""));
      flagIfUnsure("servingG", confidence);
    }
    if (values.kcal === null && (/energy|kcal|kj/i.test(text) || /^calories\b/i.test(text))) {
      const kcal = numberAfter(/(\d+(?:[.,]\d+)?)\s*kcal/i, text) ?? (/^calories\b/i.test(text) ? numberAfter(/(\d+)/, text) : null);
      const kj = numberAfter(/(\d+(?:[.,]\d+)?)\s*kj/i, text);
      if (kcal !== null && kj !== null && Math.abs(kj / KJ_PER_KCAL - kcal) > Math.max(3, kcal * 0.06)) unsure.add("kcal");
      else values.kcal = kcal ?? (kj === null ? null : Math.round(kj / KJ_PER_KCAL));
      if (values.kcal !== null) flagIfUnsure("kcal", confidence);
    }
    if (values.fatG === null && /\bfat\b/i.test(text) && !/saturat|trans/i.test(text)) values.fatG = gramsOn(text.replace(/^[^\d]*/, ""));
    if (values.carbsG === null && /carbohydrate/i.test(text)) values.carbsG = gramsOn(text.replace(/^[^\d]*/, ""));
    if (values.proteinG === null && /prote/i.test(text)) {
      values.proteinG = gramsOn(text.replace(/^[^\d]*/, ""));
      flagIfUnsure("proteinG", confidence);
    }
  }
  return checkLabel({ basis, values, servingG }, unsure);
};

/**
 * A label's values however they were read (on-device, or by the model with the fields it was unsure of): the
 * macros' energy cannot pass the total, nor protein 100 g per 100 g; a value that fails is left out and flagged,
 * so the amount eaten cannot be computed from it.
 */
export const checkLabel = ({ basis, values: read, servingG }: LabelFields, unsure: Iterable<string>): LabelReading => {
  const values = { ...read };
  const flagged = new Set(unsure);
  const { kcal, proteinG, fatG, carbsG } = values;
  // Atwater: the macros' energy cannot pass the stated total by more than rounding and fibre allow.
  const macroKcal = 4 * (proteinG ?? 0) + 9 * (fatG ?? 0) + 4 * (carbsG ?? 0);
  if (kcal !== null && (kcal > (basis === "100g" ? 900 : 3000) || macroKcal > kcal * 1.15 + 5)) {
    flagged.add("kcal").add("proteinG");
    Object.assign(values, { kcal: null, proteinG: null, fatG: null, carbsG: null });
  }
  if (basis === "100g" && proteinG !== null && proteinG > 100) {
    flagged.add("proteinG");
    values.proteinG = null;
  }
  const missing = [values.kcal === null ? "energy (kcal or kJ)" : null, values.proteinG === null ? "protein" : null].filter((m) => m !== null);
  return { basis, values, servingG, lowConfidence: [...flagged], missing };
};

/** Declared values may differ from the food by ±20 % (EU and US label tolerances): the estimate's range. */
const rangeOf = (value: number) => ({ low: Math.round(value * 0.8 * 10) / 10, high: Math.round(value * 1.2 * 10) / 10 });
const round1 = (value: number) => Math.round(value * 10) / 10;

/** The amount eaten as a factor of the label's basis, or what is missing to know it. */
const factorOf = (label: LabelReading, { grams, servings }: { grams?: number; servings?: number }): number | string => {
  const eatenG = grams ?? (label.servingG !== null ? label.servingG * (servings ?? 1) : null);
  if (label.basis === "serving") {
    if (grams === undefined) return servings ?? 1;
    return label.servingG === null ? "the serving size in grams (or send servings instead of grams)" : grams / label.servingG;
  }
  return eatenG === null ? "the grams eaten (send grams; the label shows no serving size)" : eatenG / 100;
};

/** The label's values for the amount eaten, as an estimate with its range and source; or what is missing. */
export const labelEstimate = (
  label: LabelReading,
  amount: { grams?: number; servings?: number; name?: string },
  source: string,
): FoodEstimate | { missing: string[] } => {
  const factor = factorOf(label, amount);
  const missing = [...label.missing, ...(typeof factor === "string" ? [factor] : [])];
  if (missing.length > 0 || typeof factor === "string" || label.values.kcal === null || label.values.proteinG === null) return { missing };
  const kcal = round1(label.values.kcal * factor);
  const proteinG = round1(label.values.proteinG * factor);
  const grams = amount.grams ?? (label.servingG !== null ? round1(label.servingG * (amount.servings ?? 1)) : null);
  return {
    name: amount.name ?? "Food from a label",
    quantity: amount.grams ?? amount.servings ?? 1,
    unit: amount.grams !== undefined ? "g" : "serving",
    grams,
    kcal,
    kcalRange: rangeOf(kcal),
    proteinG,
    proteinRange: rangeOf(proteinG),
    fatG: label.values.fatG === null ? null : round1(label.values.fatG * factor),
    carbsG: label.values.carbsG === null ? null : round1(label.values.carbsG * factor),
    fiberG: null,
    source,
  };
};
