import type { DatabaseFood, FoodEstimate } from "@fit/contracts";
import { amountOf, type Certainty, numberAndAHalf, readAmount, type Reading } from "./food-quantity.ts";
import { normalizeText, splitParts, tokenize } from "./food-text.ts";
import { tenth } from "./numbers.ts";

interface Range {
  low: number;
  high: number;
}

/** Asks the food database (nutrition, over the bus) for its food for each phrase, in order; null where none fits. */
export type MatchFoods = (phrases: string[]) => Promise<(DatabaseFood | null)[]>;

/**
 * Longer input is cut (the request allows no more), so no text can make this slow. The reply holds at most 20
 * items; parts past them are not read but come back in `unrecognized`, as nothing was logged for them.
 */
const maxTextChars = 4000;
const maxItems = 20;

/** How far the grams may be off, as factors of the point: weighed or measured, counted, or guessed. */
const spreads: Readonly<Record<Certainty, Range>> = {
  exact: { low: 0.95, high: 1.05 },
  counted: { low: 0.85, high: 1.15 },
  vague: { low: 0.6, high: 1.5 },
};

/** The contracts' ceilings for one item; a part past them is refused, not scaled down. */
const maxQuantity = 100_000;
const maxKcal = 10_000;
const maxGrams = { proteinG: 1000, fatG: 1000, carbsG: 2000, fiberG: 1000 };

const keepWhole = new RegExp(numberAndAHalf, "gi");

const readingOf = (text: string): Reading => readAmount(tokenize(normalizeText(text)));

/** The words a reading asks the database about, within the question's 200 characters a phrase (nutrition reads 6 words). */
const phraseOf = (reading: Reading) => reading.food.join(" ").slice(0, 200).trim();

/** The estimate of what `reading` says of `food`, or nothing for a zero amount or one past what an item may hold. */
const estimate = (reading: Reading, food: DatabaseFood): FoodEstimate | undefined => {
  const amount = amountOf(reading, food);
  if (!(amount.quantity > 0 && amount.quantity <= maxQuantity && amount.grams > 0)) return undefined;
  const spread = spreads[amount.certainty];
  const { kcal, proteinG, fatG, carbsG, fiberG } = food.per100g;
  // Math.round is monotonic, so rounding the three points keeps low <= point <= high.
  const kcalAt = (g: number) => Math.round((g * kcal) / 100);
  const gramsAt = (per100g: number, g: number) => tenth((g * per100g) / 100);
  const macro = (per100g: number | null) => (per100g === null ? null : gramsAt(per100g, amount.grams));
  const high = amount.grams * spread.high;
  if (kcalAt(high) > maxKcal || gramsAt(proteinG, high) > maxGrams.proteinG) return undefined;
  const macros = { fatG: macro(fatG), carbsG: macro(carbsG), fiberG: macro(fiberG) };
  if (Object.entries(macros).some(([key, value]) => value !== null && value > maxGrams[key as keyof typeof macros])) return undefined;
  return {
    name: food.name.slice(0, 200),
    quantity: amount.quantity,
    unit: amount.unit,
    grams: tenth(amount.grams),
    kcal: kcalAt(amount.grams),
    kcalRange: { low: kcalAt(amount.grams * spread.low), high: kcalAt(high) },
    proteinG: gramsAt(proteinG, amount.grams),
    proteinRange: { low: gramsAt(proteinG, amount.grams * spread.low), high: gramsAt(proteinG, high) },
    ...macros,
    source: food.id,
  };
};

/**
 * Foods in free text ("two eggs and toast, a glass of orange juice"), each the food database's food for its words
 * with kcal, protein, fat, carbs and fibre for the amount said, a range, and its `usda:<fdc_id>`
 * (docs/decisions/0074-food-estimates-from-the-food-database.md). Two parts joined by "and" are one food when the
 * database names one by both ("mac and cheese"). Every other part comes back in `unrecognized`, so nothing is
 * dropped silently: one the database has no food for, a zero amount or one past the contracts' limits, and any
 * past the 20th item. One question to the database for the whole text; when it cannot be asked, this fails as the
 * question did, never with a guess.
 */
export const estimateFoods = async (text: string, match: MatchFoods): Promise<{ items: FoodEstimate[]; unrecognized: string[] }> => {
  const all = splitParts(text.slice(0, maxTextChars), keepWhole);
  const parts = all.slice(0, maxItems).map((part) => ({ ...part, reading: readingOf(part.text) }));
  const pairs = parts.map((part, i) => {
    const next = parts[i + 1];
    if (!next?.afterAnd || part.reading.food.length === 0 || next.reading.food.length === 0) return null;
    const joined = `${part.text} and ${next.text}`;
    return { text: joined, reading: readingOf(joined) };
  });
  const phrases = [...new Set([...parts, ...pairs].flatMap((p) => (p && p.reading.food.length > 0 ? [phraseOf(p.reading)] : [])))];
  const found = phrases.length > 0 ? await match(phrases) : [];
  const foodFor = (reading: Reading) => (reading.food.length > 0 ? (found[phrases.indexOf(phraseOf(reading))] ?? null) : null);

  const items: FoodEstimate[] = [];
  const unrecognized: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const pair = pairs[i];
    const pairFood = pair ? foodFor(pair.reading) : null;
    const [chosen, food] = pair && pairFood?.inHead ? [pair, pairFood] : [parts[i]!, foodFor(parts[i]!.reading)];
    if (chosen === pair) i++;
    const item = food ? estimate(chosen.reading, food) : undefined;
    if (item) items.push(item);
    else unrecognized.push(chosen.text);
  }
  return { items, unrecognized: [...unrecognized, ...all.slice(maxItems).map((part) => part.text)] };
};
