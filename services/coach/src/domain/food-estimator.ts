import { type Certainty, numberAndAHalf, readAmount, type TokenSpan } from "./food-quantity.ts";
import { type FoodEntry, foodTable } from "./food-table.ts";
import { normalizeText, singularForms, splitParts, tokenize } from "./food-text.ts";
import { tenth } from "./numbers.ts";

export interface Range {
  low: number;
  high: number;
}

export interface FoodEstimate {
  /** The table entry's display name. */
  name: string;
  /** In `unit`. */
  quantity: number;
  /** "g", "ml", the portion label ("egg", "slice", "cup"…) or the household measure said ("bowl", "glass"…). */
  unit: string;
  grams: number;
  /** Point estimate, whole kcal; low <= kcal <= high. */
  kcal: number;
  kcalRange: Range;
  /** One decimal, like its range. */
  proteinG: number;
  proteinRange: Range;
  /** `table:<entry id>`. */
  source: string;
}

/** Longer input is cut, and parts past the 20th food ignored, so no text can make this slow. */
const maxTextChars = 4000;
const maxItems = 20;

/** How far the grams may be off, as factors of the point: weighed or measured, counted, or guessed. */
const spreads: Readonly<Record<Certainty, Range>> = {
  exact: { low: 0.95, high: 1.05 },
  counted: { low: 0.85, high: 1.15 },
  vague: { low: 0.6, high: 1.5 },
};

/** The reply contract's ceilings for one item; absurd amounts are scaled down to stay within them. */
const maxKcal = 10_000;
const maxProteinG = 1000;

interface Alias {
  words: readonly string[];
  chars: number;
  entry: FoodEntry;
  order: number;
}

interface FoodMatch extends TokenSpan {
  alias: Alias;
}

/** Every alias filed under its first word, so a lookup costs one map probe per token and plural form. */
const aliasesByFirstWord: ReadonlyMap<string, readonly Alias[]> = (() => {
  const index = new Map<string, Alias[]>();
  foodTable.forEach((entry, order) => {
    for (const alias of entry.aliases) {
      const words = tokenize(normalizeText(alias));
      const [first] = words;
      if (first === undefined) continue;
      const bucket = index.get(first) ?? [];
      bucket.push({ words, chars: words.join(" ").length, entry, order });
      index.set(first, bucket);
    }
  });
  return index;
})();

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** An alias as raw text may write it: spaces or hyphens between words, "&" for "and", a plural ending. */
const rawAliasPattern = (words: readonly string[]) =>
  String.raw`\b${words.map((word) => (word === "and" ? "(?:and|&)" : escapeRegExp(word))).join(String.raw`[\s-]*`)}(?:e?s)?\b`;

/** Foods whose name holds a separator word ("mac and cheese", "coffee with milk") and "2 and a half" stay whole. */
const keepWhole = new RegExp(
  [
    ...foodTable
      .flatMap((entry) => entry.aliases)
      .map((alias) => tokenize(normalizeText(alias)))
      .filter((words) => words.some((word) => word === "and" || word === "with" || word === "plus"))
      .sort((a, b) => b.join(" ").length - a.join(" ").length)
      .map(rawAliasPattern),
    numberAndAHalf,
  ].join("|"),
  "gi",
);

const matchesAt = (tokens: readonly string[], start: number, words: readonly string[]) =>
  words.every((word, k) => {
    const token = tokens[start + k];
    return token !== undefined && singularForms(token).includes(word);
  });

/** Longest alias wins; between equally long ones the later (the head noun: "chocolate muffin"), then table order. */
const better = (a: FoodMatch, b: FoodMatch | undefined) =>
  b === undefined || a.alias.chars > b.alias.chars || (a.alias.chars === b.alias.chars && (a.start > b.start || (a.start === b.start && a.alias.order < b.alias.order)));

const findFood = (tokens: readonly string[]): FoodMatch | undefined => {
  let best: FoodMatch | undefined;
  tokens.forEach((token, start) => {
    for (const form of singularForms(token)) {
      for (const alias of aliasesByFirstWord.get(form) ?? []) {
        const match = { alias, start, end: start + alias.words.length };
        if (matchesAt(tokens, start, alias.words) && better(match, best)) best = match;
      }
    }
  });
  return best;
};

const estimatePart = (part: string): FoodEstimate | undefined => {
  const tokens = tokenize(normalizeText(part));
  const food = findFood(tokens);
  if (!food) return undefined;
  const { entry } = food.alias;
  const amount = readAmount(tokens, food, entry);
  const spread = spreads[amount.certainty];
  const gramsCeiling = Math.min(
    entry.kcalPer100g > 0 ? (maxKcal * 100) / (entry.kcalPer100g * spread.high) : Infinity,
    entry.proteinPer100g > 0 ? (maxProteinG * 100) / (entry.proteinPer100g * spread.high) : Infinity,
  );
  const scale = Math.min(1, gramsCeiling / amount.grams);
  const grams = amount.grams * scale;
  // Math.round is monotonic, so rounding the three points keeps low <= point <= high.
  const kcalAt = (g: number) => Math.round((g * entry.kcalPer100g) / 100);
  const proteinAt = (g: number) => tenth((g * entry.proteinPer100g) / 100);
  return {
    name: entry.name,
    quantity: scale < 1 ? Math.max(0.01, Math.floor(amount.quantity * scale * 100) / 100) : amount.quantity,
    unit: amount.unit,
    grams: tenth(grams),
    kcal: kcalAt(grams),
    kcalRange: { low: kcalAt(grams * spread.low), high: kcalAt(grams * spread.high) },
    proteinG: proteinAt(grams),
    proteinRange: { low: proteinAt(grams * spread.low), high: proteinAt(grams * spread.high) },
    source: `table:${entry.id}`,
  };
};

/**
 * Foods in free text ("two eggs and toast, a glass of orange juice") with kcal and protein, each with a range
 * and the table entry it came from. Parts naming no known food come back in `unrecognized`. Deterministic.
 */
export const estimateFoods = (text: string): { items: FoodEstimate[]; unrecognized: string[] } => {
  const items: FoodEstimate[] = [];
  const unrecognized: string[] = [];
  for (const part of splitParts(text.slice(0, maxTextChars), keepWhole)) {
    if (items.length >= maxItems) break;
    const estimate = estimatePart(part);
    if (estimate) items.push(estimate);
    else if (unrecognized.length < maxItems) unrecognized.push(part);
  }
  return { items, unrecognized };
};
