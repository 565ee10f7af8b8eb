import { type Certainty, numberAndAHalf, readAmount, type TokenSpan } from "./food-quantity.ts";
import { type FoodEntry, foodTable } from "./food-table.ts";
import { joinerWords, normalizeText, singularForms, splitParts, tokenize } from "./food-text.ts";
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
  /** "g", "ml", the portion label ("egg", "slice", "cup"…), the household measure said ("bowl", "glass"…) or a whole's size ("whole", "small"…). */
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

/** The contracts' ceilings for one item (a logged quantity, kcal and protein); a part past them is refused, not scaled down. */
const maxQuantity = 100_000;
const maxKcal = 10_000;
const maxProteinG = 1000;

/** Rich enough in protein that taking it for another one changes the day's protein: meat, fish, eggs, tofu, cheese. */
const isProteinFood = (entry: FoodEntry) => entry.proteinPer100g >= 10;

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

/** Foods whose name holds a joiner word ("mac and cheese", "beans on toast") and "2 and a half" stay whole. */
const keepWhole = new RegExp(
  [
    ...foodTable
      .flatMap((entry) => entry.aliases)
      .map((alias) => tokenize(normalizeText(alias)))
      .filter((words) => words.some((word) => joinerWords.includes(word)))
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

/** The entry of the longest food named by the tokens that end just before `end` ("tofu" in "tofu stir fry"). */
const foodEndingAt = (tokens: readonly string[], end: number): FoodEntry | undefined => {
  for (let start = 0; start < end; start++) {
    for (const form of singularForms(tokens[start] ?? "")) {
      const alias = aliasesByFirstWord.get(form)?.find((a) => start + a.words.length === end && matchesAt(tokens, start, a.words));
      if (alias) return alias.entry;
    }
  }
  return undefined;
};

/**
 * The protein food an entry's name puts before the alias matched, which the alias leaves out: "chicken" for
 * "stir fry". Not a cheese: on a pizza it is a topping, so "ham pizza" and "mozzarella pizza" stay pizzas.
 */
const claimedProtein = ({ words, entry }: Alias): FoodEntry | undefined => {
  const name = tokenize(normalizeText(entry.name));
  const cut = name.length - words.length;
  if (cut <= 0 || !words.every((word, k) => name[cut + k] === word)) return undefined;
  const claimed = foodEndingAt(name, cut);
  return claimed && isProteinFood(claimed) && !claimed.id.startsWith("cheese-") ? claimed : undefined;
};

/** "tofu stir fry" read as the table's "stir fry" would log chicken: another protein said in its place makes another dish. */
const swapsProtein = (tokens: readonly string[], { alias, start }: FoodMatch) => {
  const claimed = claimedProtein(alias);
  const said = claimed ? foodEndingAt(tokens, start) : undefined;
  return said !== undefined && said !== claimed && isProteinFood(said);
};

/** The part's food, or nothing when the table has no fit or the amount is zero or past what one item may hold. */
const estimatePart = (part: string): FoodEstimate | undefined => {
  const tokens = tokenize(normalizeText(part));
  const food = findFood(tokens);
  if (!food || swapsProtein(tokens, food)) return undefined;
  const { entry } = food.alias;
  const amount = readAmount(tokens, food, entry);
  if (!(amount.quantity > 0 && amount.quantity <= maxQuantity)) return undefined;
  const spread = spreads[amount.certainty];
  // Math.round is monotonic, so rounding the three points keeps low <= point <= high.
  const kcalAt = (g: number) => Math.round((g * entry.kcalPer100g) / 100);
  const proteinAt = (g: number) => tenth((g * entry.proteinPer100g) / 100);
  const high = amount.grams * spread.high;
  if (kcalAt(high) > maxKcal || proteinAt(high) > maxProteinG) return undefined;
  return {
    name: entry.name,
    quantity: amount.quantity,
    unit: amount.unit,
    grams: tenth(amount.grams),
    kcal: kcalAt(amount.grams),
    kcalRange: { low: kcalAt(amount.grams * spread.low), high: kcalAt(high) },
    proteinG: proteinAt(amount.grams),
    proteinRange: { low: proteinAt(amount.grams * spread.low), high: proteinAt(high) },
    source: `table:${entry.id}`,
  };
};

/**
 * Foods in free text ("two eggs and toast, a glass of orange juice") with kcal and protein, each with a range
 * and the table entry it came from. Every other part comes back in `unrecognized`, so nothing is dropped
 * silently: one naming no known food, or a protein the table would swap for another, a zero amount or one
 * past the contracts' limits, and any past the 20th item. Deterministic.
 */
export const estimateFoods = (text: string): { items: FoodEstimate[]; unrecognized: string[] } => {
  const items: FoodEstimate[] = [];
  const unrecognized: string[] = [];
  for (const part of splitParts(text.slice(0, maxTextChars), keepWhole)) {
    const estimate = items.length < maxItems ? estimatePart(part) : undefined;
    if (estimate) items.push(estimate);
    else unrecognized.push(part);
  }
  return { items, unrecognized };
};
