import type { DatabaseFood } from "@fit/contracts";
import { sentenceWords, singularForms } from "./food-text.ts";

/** How the grams were arrived at, which decides how wide the range around them is. */
export type Certainty = "exact" | "counted" | "vague";

export interface Amount {
  quantity: number;
  unit: string;
  grams: number;
  certainty: Certainty;
}

type Portion = DatabaseFood["portions"][number];

const each = <T>(words: readonly string[], value: T) => words.map((word): [string, T] => [word, value]);

const gramsPerUnit: ReadonlyMap<string, number> = new Map([
  ...each(["g", "gr", "gram", "gramme"], 1),
  ...each(["kg", "kilo", "kilogram", "kilogramme"], 1000),
  ...each(["oz", "ounce"], 28.3495),
  ...each(["lb", "pound"], 453.592),
]);

/** Volumes; the household ones ("cup", "tbsp") are read through the food's own measure of that name when it has one. */
const mlPerUnit: ReadonlyMap<string, number> = new Map([
  ...each(["ml", "milliliter", "millilitre"], 1),
  ...each(["l", "liter", "litre"], 1000),
  ...each(["cl"], 10),
  ...each(["dl"], 100),
  ...each(["cup"], 240),
  ...each(["tbsp", "tbs", "tablespoon", "spoon", "spoonful"], 15),
  ...each(["tsp", "teaspoon"], 5),
]);
const metricVolumes = new Set(["ml", "milliliter", "millilitre", "l", "liter", "litre", "cl", "dl"]);
const fluidOunceMl = 29.5735;

/** Words that mean one of the food's own measures when it has one of that name ("a slice of toast", "a stick of butter"). */
const portionWords = new Set(["slice", "piece", "pc", "serving", "portion", "stick", "fillet", "breast", "leaf", "head", "container", "pat", "patty", "fruit"]);

/**
 * Household measures the database gives few foods: fixed sizes, volumes through the food's density (a bowl of
 * cereal weighs far less than a bowl of soup). Vague ones (bowls, plates, handfuls vary a lot) get the wide range.
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

/** A size said picks the food's measure of that size ("2 large eggs", "a small banana"). */
const sizes = new Set(["small", "medium", "large", "big", "jumbo"]);
/** Words that may stand between a number and its unit: "2 large slices", "a couple of cups", "2 x 100 g". */
const fillers = new Set(["of", "x", "extra", "huge", "thick", "thin", "full", "heaping", "heaped", "level", "generous", "regular", ...sizes]);

/** "2 and a half" is one quantity; the text splitter must not cut it at "and". */
export const numberAndAHalf = String.raw`\b(?:\d+|${numberWords.join("|")})\s+and\s+a\s+half\b`;

type Measure =
  | { kind: "mass"; grams: number }
  | { kind: "volume"; ml: number; word: string }
  | { kind: "word"; word: string };

interface Count {
  count: number;
  vague: boolean;
  measure: Measure | null;
}

/** What the words of one food say: how much (null: nothing said), the size named, and the words left that name the food (a sentence's own words left out). */
export interface Reading {
  amount: Count | null;
  size: string | null;
  food: string[];
}

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
const readNumber = (tokens: readonly string[], i: number): { value: number; next: number; vague: boolean } | null => {
  const at = (k: number) => tokens[k];
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

/** The unit the token at `i` names and how many tokens it takes, if any. */
const readMeasure = (tokens: readonly string[], i: number): { measure: Measure; length: number } | null => {
  const word = tokens[i];
  if (word === undefined) return null;
  if (word === "fl" && ["oz", "ounce", "ounces"].includes(tokens[i + 1] ?? "")) return { measure: { kind: "volume", ml: fluidOunceMl, word: "fl oz" }, length: 2 };
  for (const form of singularForms(word)) {
    const grams = gramsPerUnit.get(form);
    if (grams !== undefined) return { measure: { kind: "mass", grams }, length: 1 };
    const ml = mlPerUnit.get(form);
    if (ml !== undefined) return { measure: { kind: "volume", ml, word: form }, length: 1 };
    if (portionWords.has(form) || containers.has(form)) return { measure: { kind: "word", word: form }, length: 1 };
  }
  return null;
};

/**
 * How much the tokens of one food say and which words are left to name it. Every number is read with the unit
 * after it; a mass or volume wins over a bare count ("a 200 g steak"), else the first one counts. A unit word alone
 * before "of" ("glass of milk") means one of it.
 */
export const readAmount = (tokens: readonly string[]): Reading => {
  const used = new Set<number>();
  const counts: Count[] = [];
  let size: string | null = null;
  const skipFillers = (from: number) => {
    let j = from;
    while (fillers.has(tokens[j] ?? "")) {
      if (sizes.has(tokens[j]!)) size ??= tokens[j]!;
      used.add(j++);
    }
    return j;
  };
  for (let i = 0; i < tokens.length; i++) {
    if (used.has(i)) continue;
    const number = readNumber(tokens, i);
    // A unit word without a number counts one only as "<unit> of": "glass of milk", not the "breast" of "chicken breast".
    const lone = number === null ? readMeasure(tokens, i) : null;
    if (lone && tokens[i + lone.length] !== "of") continue;
    if (!number && !lone) {
      if (sizes.has(tokens[i]!)) {
        size ??= tokens[i]!;
        used.add(i);
      }
      continue;
    }
    const start = number ? number.next : i;
    for (let k = i; k < start; k++) used.add(k);
    const j = skipFillers(start);
    const unit = number ? readMeasure(tokens, j) : lone;
    if (unit) {
      for (let k = j; k < j + unit.length; k++) used.add(k);
      if (tokens[j + unit.length] === "of") used.add(j + unit.length);
    }
    counts.push({ count: number?.value ?? 1, vague: number?.vague ?? false, measure: unit?.measure ?? null });
    i = Math.max(i, j + (unit?.length ?? 0) - 1);
  }
  const amount = counts.find((c) => c.measure?.kind === "mass" || c.measure?.kind === "volume") ?? counts[0] ?? null;
  return { amount, size, food: tokens.filter((token, i) => !used.has(i) && !sentenceWords.has(token)) };
};

const hundredths = (value: number) => Math.round(value * 100) / 100;

/** A measure's own words, its size and description left out: "medium (7" to 7-7/8" long)" → "medium", "cup, chopped" → "cup". */
const label = (portion: Portion) => portion.unit.replace(/\([^)]*\)/g, "").split(",")[0]!.trim().slice(0, 30) || "portion";
const words = (portion: Portion): string[] => portion.unit.toLowerCase().match(/[a-z]+/g) ?? [];
const gramsEach = (portion: Portion) => portion.grams / portion.amount;
/** Measures by volume or weight the estimator has no unit of its own for; never a piece of the food. */
const bulkWords = new Set(["fl", "quart", "gallon", "pint", "package", "packet", "dash", "pinch", "cubic"]);
const isVolumeOrMass = (portion: Portion) => {
  const [first] = words(portion);
  return first !== undefined && (mlPerUnit.has(first) || gramsPerUnit.has(first) || bulkWords.has(first));
};
const isServing = (portion: Portion) => words(portion).includes("serving");

/**
 * One of the food counted as a piece: the size said, else the measure named by a word of the food ("breast" for
 * chicken breast), else medium, else large, else its first measure of one thing that is neither a volume nor a
 * serving ("50 berries" is no piece).
 */
const piece = (portions: readonly Portion[], { size, food }: Pick<Reading, "size" | "food">) => {
  const pieces = portions.filter((p) => p.amount <= 1 && !isVolumeOrMass(p) && !isServing(p));
  const sized = (word: string) => pieces.find((p) => words(p)[0] === word);
  const named = pieces.find((p) => food.some((word) => singularForms(word).includes(words(p)[0] ?? "")));
  return (size && sized(size === "big" || size === "jumbo" ? "large" : size)) || named || sized("medium") || sized("large") || pieces[0];
};

/** Grams per ml of the food, from a measure of it by volume; water's when it has none. */
const density = (portions: readonly Portion[]) => {
  for (const portion of portions) {
    const [first, second] = words(portion);
    const ml = first === "fl" && second === "oz" ? fluidOunceMl : first === undefined ? undefined : mlPerUnit.get(first);
    if (ml !== undefined && !metricVolumes.has(first!)) return gramsEach(portion) / ml;
  }
  return 1;
};

/** One typical serving: the food's serving measure, else one piece, else a cup, else its first measure, else 100 g. */
const serving = (portions: readonly Portion[], reading: Reading): { grams: number; unit: string } => {
  const chosen = portions.find(isServing) ?? piece(portions, reading) ?? portions.find((p) => words(p)[0] === "cup") ?? portions[0];
  return chosen ? { grams: gramsEach(chosen), unit: label(chosen) } : { grams: 100, unit: "g" };
};

/**
 * The words' amount in grams of `food`, on its household measures: a weight as said; a volume through the food's
 * measure of that name or its density; a measure word through the food's measure of that name ("slice") or a
 * fixed container; a bare count in pieces ("2 eggs": two of its large measure); nothing said, one serving, vaguely.
 */
export const amountOf = (reading: Reading, food: Pick<DatabaseFood, "portions">): Amount => {
  const { portions } = food;
  const { amount } = reading;
  if (amount === null) {
    const { grams, unit } = serving(portions, reading);
    return { quantity: 1, unit, grams, certainty: "vague" };
  }
  const { count, vague, measure } = amount;
  const certainty = (sure: Certainty): Certainty => (vague ? "vague" : sure);
  switch (measure?.kind) {
    case "mass": {
      const grams = count * measure.grams;
      return { quantity: hundredths(grams), unit: "g", grams, certainty: certainty("exact") };
    }
    case "volume": {
      if (metricVolumes.has(measure.word)) {
        const ml = count * measure.ml;
        return { quantity: hundredths(ml), unit: "ml", grams: ml * density(portions), certainty: certainty("exact") };
      }
      const own = portions.find((p) => words(p)[0] === measure.word);
      const grams = count * (own ? gramsEach(own) : measure.ml * density(portions));
      return { quantity: hundredths(count), unit: measure.word, grams, certainty: certainty("counted") };
    }
    case "word": {
      const own = portions.filter((p) => words(p).includes(measure.word));
      const chosen = own.find((p) => words(p).length === 1) ?? own[0];
      const container = containers.get(measure.word);
      if (chosen) return { quantity: hundredths(count), unit: measure.word, grams: count * gramsEach(chosen), certainty: certainty("counted") };
      if (container) {
        const grams = count * (container.grams ?? (container.ml ?? 0) * density(portions));
        return { quantity: hundredths(count), unit: measure.word, grams, certainty: container.vague ? "vague" : certainty("counted") };
      }
      const { grams, unit } = serving(portions, reading);
      return { quantity: hundredths(count), unit, grams: count * grams, certainty: certainty("counted") };
    }
    default: {
      const one = piece(portions, reading);
      const { grams, unit } = one ? { grams: gramsEach(one), unit: label(one) } : serving(portions, reading);
      return { quantity: hundredths(count), unit, grams: count * grams, certainty: certainty("counted") };
    }
  }
};
