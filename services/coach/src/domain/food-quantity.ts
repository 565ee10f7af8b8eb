import type { FoodEntry } from "./food-table.ts";
import { singularForms } from "./food-text.ts";

/** How the grams were arrived at, which decides how wide the range around them is. */
export type Certainty = "exact" | "counted" | "vague";

interface Amount {
  quantity: number;
  unit: string;
  grams: number;
  certainty: Certainty;
}

/** Where the food's own name sits among the tokens; quantity words are never read from there ("half and half"). */
export interface TokenSpan {
  start: number;
  end: number;
}

const each = <T>(words: readonly string[], value: T) => words.map((word): [string, T] => [word, value]);

const gramsPerUnit: ReadonlyMap<string, number> = new Map([
  ...each(["g", "gr", "gram", "gramme"], 1),
  ...each(["kg", "kilo", "kilogram", "kilogramme"], 1000),
  ...each(["oz", "ounce"], 28.3495),
  ...each(["lb", "pound"], 453.592),
]);

const mlPerUnit: ReadonlyMap<string, number> = new Map([
  ...each(["ml", "milliliter", "millilitre"], 1),
  ...each(["l", "liter", "litre"], 1000),
  ...each(["cl"], 10),
  ...each(["dl"], 100),
  ...each(["cup"], 240),
  ...each(["tbsp", "tbs", "tablespoon", "spoon", "spoonful"], 15),
  ...each(["tsp", "teaspoon"], 5),
]);

const fluidOunceMl = 29.5735;

/** Words that mean "one of the food's portion", whatever that portion is. */
const portionWords = new Set(["slice", "piece", "pc", "serving", "portion"]);

/**
 * Household measures a food has no portion of its own for. Volumes go through the food's density, so a
 * bowl of cereal weighs far less than a bowl of soup. Vague ones (bowls, plates, handfuls vary a lot) get
 * the wide range.
 */
const containers: ReadonlyMap<string, { ml?: number; grams?: number; vague: boolean }> = new Map([
  ["bowl", { ml: 350, vague: true }],
  ["plate", { grams: 350, vague: true }],
  ["handful", { grams: 30, vague: true }],
  ["bottle", { ml: 500, vague: true }],
  ["splash", { ml: 30, vague: true }],
  ["glass", { ml: 250, vague: false }],
  ["mug", { ml: 300, vague: false }],
  ["can", { ml: 330, vague: false }],
  ["pint", { ml: 500, vague: false }],
  ["scoop", { grams: 30, vague: false }],
]);

/**
 * How many of the table's slices a whole is, by the size said (the table says why a whole is eight). Smaller
 * sizes go by a pizza's area: a 12" medium is about three quarters of a 14" large, a 10" small about half.
 * `unit` is what the amount is then given in: "1 whole pepperoni pizza", "2 small cheese pizza".
 */
const fullSize = { slices: 8, unit: "whole" };
const wholeSizes: ReadonlyMap<string, { slices: number; unit: string }> = new Map([
  ...each(["whole", "large", "big", "regular"], fullSize),
  ...each(["medium"], { slices: 6, unit: "medium" }),
  ...each(["small", "personal", "mini"], { slices: 4, unit: "small" }),
]);

const numberWords = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"];

const wordValues: ReadonlyMap<string, number> = new Map([
  ...numberWords.map((word, i): [string, number] => [word, i + 1]),
  ...each(["dozen"], 12),
  ...each(["half"], 0.5),
  ...each(["quarter"], 0.25),
  ...each(["couple", "pair"], 2),
  ...each(["few", "several"], 3),
  ...each(["some", "bit", "little"], 1),
]);

/** Amount words that say roughly how much without saying how much. */
const vagueWords = new Set(["few", "several", "some", "bit", "little"]);
const articles = new Set(["a", "an"]);

/** Words that may stand between a number and its unit: "2 large slices", "a couple of cups", "2 x 100 g". */
const fillers = new Set(["of", "x", "small", "medium", "large", "big", "extra", "huge", "jumbo", "thick", "thin", "full", "heaping", "heaped", "level", "generous", "regular"]);

/** "2 and a half" is one quantity; the text splitter must not cut it at "and". */
export const numberAndAHalf = String.raw`\b(?:\d+|${numberWords.join("|")})\s+and\s+a\s+half\b`;

type Measure =
  | { kind: "mass"; grams: number }
  | { kind: "volume"; ml: number }
  | { kind: "portion" }
  | { kind: "container"; word: string; ml?: number; grams?: number; vague: boolean }
  | { kind: "whole"; slices: number; unit: string };

interface Reading {
  count: number;
  vague: boolean;
  measure: Measure | null;
}

type TokenAt = (i: number) => string | undefined;

const numeral = (token: string | undefined): number | undefined => {
  if (token === undefined) return undefined;
  if (/^\d+(?:\.\d+)?$/.test(token)) return Number(token);
  const fraction = /^(\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?)$/.exec(token);
  if (!fraction) return undefined;
  const denominator = Number(fraction[2]);
  return denominator > 0 ? Number(fraction[1]) / denominator : undefined;
};

/**
 * A number written in digits, a fraction or words, from token `i`; where it ends and whether it is vague. Zero
 * and absurd counts are read as said, for the estimator to refuse rather than guess a portion instead.
 */
const readNumber = (at: TokenAt, i: number): { value: number; next: number; vague: boolean } | null => {
  const token = at(i);
  if (token === undefined) return null;
  let next = i + 1;
  let word: string | undefined;
  let value = numeral(token);
  if (value !== undefined) {
    const mixed = at(next);
    if (Number.isInteger(value) && mixed?.includes("/")) {
      value += numeral(mixed) ?? 0;
      next++;
    }
  } else if (articles.has(token)) {
    const after = at(next);
    if (after !== undefined && wordValues.has(after)) {
      word = after;
      next++;
    } else value = 1;
  } else if (wordValues.has(token)) word = token;
  else return null;
  if (word !== undefined) value = wordValues.get(word);
  if (value === undefined) return null;
  if ((word === "half" || word === "quarter") && articles.has(at(next) ?? "")) next++;
  if (at(next) === "and" && at(next + 1) === "a" && at(next + 2) === "half") {
    value += 0.5;
    next += 3;
  }
  if (at(next) === "dozen") {
    value *= 12;
    next++;
  }
  return { value, next, vague: word !== undefined && vagueWords.has(word) };
};

/** The unit the token at `i` names for this food, if any. */
const readMeasure = (at: TokenAt, i: number, entry: FoodEntry): Measure | null => {
  const word = at(i);
  if (word === undefined) return null;
  if (word === "fl" && ["oz", "ounce", "ounces"].includes(at(i + 1) ?? "")) return { kind: "volume", ml: fluidOunceMl };
  for (const form of singularForms(word)) {
    const grams = gramsPerUnit.get(form);
    if (grams !== undefined) return { kind: "mass", grams };
    const ml = mlPerUnit.get(form);
    if (ml !== undefined) return { kind: "volume", ml };
    // The food's own portion wins over a generic measure: a can of tuna is not 330 ml of tuna.
    if (form === entry.portion.label || portionWords.has(form)) return { kind: "portion" };
    const container = containers.get(form);
    if (container) return { kind: "container", word: form, ...container };
  }
  return null;
};

const skipFillers = (at: TokenAt, i: number): number => {
  let j = i;
  while (fillers.has(at(j) ?? "")) j++;
  return j;
};

const isMeasured = (reading: Reading) => reading.measure?.kind === "mass" || reading.measure?.kind === "volume";

const hundredths = (value: number) => Math.round(value * 100) / 100;

const toAmount = ({ count, vague, measure }: Reading, entry: FoodEntry): Amount => {
  const density = entry.mlDensity ?? 1;
  switch (measure?.kind) {
    case "mass": {
      const grams = count * measure.grams;
      return { quantity: hundredths(grams), unit: "g", grams, certainty: vague ? "vague" : "exact" };
    }
    case "volume": {
      const ml = count * measure.ml;
      return { quantity: hundredths(ml), unit: "ml", grams: ml * density, certainty: vague ? "vague" : "exact" };
    }
    case "container": {
      const grams = count * (measure.grams ?? (measure.ml ?? 0) * density);
      return { quantity: hundredths(count), unit: measure.word, grams, certainty: vague || measure.vague ? "vague" : "counted" };
    }
    case "whole":
      return { quantity: hundredths(count), unit: measure.unit, grams: count * measure.slices * entry.portion.grams, certainty: vague ? "vague" : "counted" };
    default:
      return { quantity: hundredths(count), unit: entry.portion.label, grams: count * entry.portion.grams, certainty: vague ? "vague" : "counted" };
  }
};

/**
 * The whole to count the food in when it is named by its whole ("2 pizzas", "a cheesecake"; not "a pizza slice"
 * or "a cupcake"), as big as the first size word said; `sized` tells whether one was.
 */
const wholeOf = (tokens: readonly string[], food: TokenSpan, at: TokenAt, entry: FoodEntry): { measure: Measure; sized: boolean } | null => {
  if (!singularForms(tokens[food.end - 1] ?? "").some((form) => entry.whole?.includes(form))) return null;
  const size = tokens.map((_, i) => wholeSizes.get(at(i) ?? "")).find((found) => found !== undefined);
  return { measure: { kind: "whole", ...(size ?? fullSize) }, sized: size !== undefined };
};

/**
 * How much of `entry` the tokens describe. Every number outside the food's name is read with the unit after
 * it; a mass or volume wins over a bare count ("a 200 g steak"), else the first one counts. With no number,
 * a lone unit word ("glass of milk") means one of it, and nothing at all means one vague portion. A food
 * named by its whole and counted without a unit ("half a pizza"), or given a size ("large pizza"), is counted
 * in wholes; "a slice of pizza" and a vague "some pizza" stay slices.
 */
export const readAmount = (tokens: readonly string[], food: TokenSpan, entry: FoodEntry): Amount => {
  const at: TokenAt = (i) => (i >= food.start && i < food.end ? undefined : tokens[i]);
  const readings: Reading[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const number = readNumber(at, i);
    if (!number) continue;
    readings.push({ count: number.value, vague: number.vague, measure: readMeasure(at, skipFillers(at, number.next), entry) });
    i = number.next - 1;
  }
  const whole = wholeOf(tokens, food, at, entry);
  const chosen = readings.find(isMeasured) ?? readings[0];
  if (chosen) return toAmount(chosen.measure === null && !chosen.vague && whole ? { ...chosen, measure: whole.measure } : chosen, entry);
  // A lone one-letter token ("g", "l") is noise, not a measure of one.
  const lone = tokens.map((token, i) => (token.length > 1 ? readMeasure(at, i, entry) : null)).find((measure) => measure !== null) ?? null;
  if (lone === null && whole?.sized) return toAmount({ count: 1, vague: false, measure: whole.measure }, entry);
  return toAmount({ count: 1, vague: lone === null, measure: lone }, entry);
};
