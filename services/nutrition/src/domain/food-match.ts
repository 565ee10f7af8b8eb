// Which food of the database a phrase of everyday words means, among the foods search found for it: the coach's
// estimates rest on this (docs/decisions/0074-food-estimates-from-the-food-database.md).
import { headWords, searchWords } from "./food-words.ts";

export interface Candidate {
  id: string;
  name: string;
  category: string;
}

/**
 * Everyday names SR Legacy writes in its own words ("Bread, white, commercially prepared, toasted" for toast). A
 * table, and a short one: only names search cannot reach from the words themselves; the foods and their numbers
 * all come from the database.
 */
const WORD_NAMES: ReadonlyMap<string, string> = new Map([
  ["mac", "macaroni"],
  ["yoghurt", "yogurt"],
]);
/** Names that mean one food only said alone: "salad" is lettuce, "potato salad" is not; "toast" is not "french toast". */
const PHRASE_NAMES: ReadonlyMap<string, string> = new Map([
  ["toast", "bread white toasted"],
  ["bread", "bread white commercially prepared"],
  ["milk", "milk whole milkfat"],
  ["rice", "rice white long grain regular"],
  ["oatmeal", "oats cooked"],
  ["porridge", "oats cooked"],
  ["pepper", "spices pepper black"],
  // Said alone, the everyday kind, not the first search finds (blue cheese, breakfast strips, fried tofu, sprouts).
  ["cheese", "cheese cheddar"],
  ["beef", "beef ground 85 lean cooked broiled"],
  ["tofu", "tofu firm"],
  ["lentils", "lentils mature seeds cooked boiled"],
  ["salad", "lettuce green leaf"],
  ["green salad", "lettuce green leaf"],
  ["side salad", "lettuce green leaf"],
]);

/** The words to look a phrase up by: the database's own for everyday names. */
export const databaseWords = (phrase: string): string[] => {
  const words = searchWords(phrase);
  const whole = PHRASE_NAMES.get(words.join(" "));
  if (whole) return whole.split(" ");
  return [...new Set(words.flatMap((word) => (WORD_NAMES.get(word) ?? word).split(" ")))];
};

/** The words a word may be written as in a description: itself and its singular ("berries" → "berry"). */
const stems = (word: string) => {
  const forms = [word];
  if (word.endsWith("ies")) forms.push(`${word.slice(0, -3)}y`);
  if (word.endsWith("es")) forms.push(word.slice(0, -2));
  if (word.endsWith("s")) forms.push(word.slice(0, -1));
  return forms;
};

/** Whether description word `found` is typed word `typed`, or its plural or singular. */
const names = (typed: string, found: string) => stems(typed).some((t) => stems(found).includes(t));

/**
 * The words that say what a food is: its description without parentheses and without what a "with"/"without"
 * clause adds ("Peppers, sweet, red, cooked, boiled, drained, with salt" is no salt).
 */
const namingWords = (description: string) =>
  searchWords(
    description
      .replace(/\([^)]*\)/g, " ")
      .split(",")
      .map((part) => part.replace(/\b(?:with|without)\b.*$/i, ""))
      .join(","),
  );

const RAW = new Set(["raw", "uncooked", "unprepared", "dry", "unheated"]);
/** The ways a food usually eaten cooked is most often cooked; "cooked" alone next; other ways (fried, stewed…) after. */
const PLAINLY_COOKED = new Set(["roasted", "boiled", "grilled", "baked", "broiled", "steamed"]);
const COOKED = "cooked";
const OTHERWISE_COOKED = new Set(["fried", "stewed", "braised", "poached", "scrambled", "prepared", "microwaved", "heated", "toasted", "simmered", "omelet"]);
const isPreparation = (word: string) => RAW.has(word) || word === COOKED || PLAINLY_COOKED.has(word) || OTHERWISE_COOKED.has(word);
/** Forms nobody means by the plain word: a powder, a mix, a tin, a restaurant's. */
const ODD = new Set(["dried", "dehydrated", "powder", "mix", "concentrate", "frozen", "canned", "imitation", "substitute", "babyfood", "formulated", "restaurant", "nuggets", "yolk", "instant"]);

/** Foods usually eaten cooked: meat, fish, grains, pasta and legumes by their group, eggs and potatoes by their name. */
const COOKED_CATEGORIES = new Set([
  "Poultry Products", "Beef Products", "Pork Products", "Lamb, Veal, and Game Products", "Finfish and Shellfish Products",
  "Cereal Grains and Pasta", "Legumes and Legume Products",
]);
const COOKED_HEADS = new Set(["egg", "eggs", "potato", "potatoes", "bean", "beans"]);
/** Produce usually eaten raw. */
const PRODUCE = new Set(["Fruits and Fruit Juices", "Vegetables and Vegetable Products"]);

/** Categories whose foods are rarely what a plain word means. */
const SIDELINED = new Set(["Baby Foods", "Fast Foods", "Restaurant Foods", "American Indian/Alaska Native Foods", "Sausages and Luncheon Meats"]);

/**
 * Cooked unless said raw: a food usually eaten cooked (meat, fish, eggs, grains, pasta, beans, potatoes, and
 * anything else with a raw and a cooked form) in its plainest cooked form; produce usually eaten raw (fruit, a
 * carrot, lettuce) raw. Words that say how it was prepared must be in the food anyway, so this decides only when
 * they are not said.
 */
const preparation = (words: readonly string[], typed: readonly string[], category: string, head: readonly string[]) => {
  if (typed.some(isPreparation)) return 0;
  const raw = words.some((word) => RAW.has(word));
  const cooked = words.some((word) => word !== COOKED && isPreparation(word) && !RAW.has(word)) || words.includes(COOKED);
  if (COOKED_CATEGORIES.has(category) || head.some((word) => COOKED_HEADS.has(word))) {
    if (words.some((word) => PLAINLY_COOKED.has(word))) return 1;
    if (words.some((word) => OTHERWISE_COOKED.has(word))) return 0.7;
    if (cooked) return 0.9;
    return raw ? -1 : 0;
  }
  if (PRODUCE.has(category)) return (raw ? 1 : 0) - (cooked ? 1 : 0);
  // Anything else: a mix or dough as sold is not what its name means once eaten.
  return raw && !cooked ? -0.5 : 0;
};

/** Heads SR Legacy files foods under by their kind, naming the food itself in the part after ("Fish, salmon, …"). */
const CLASS_HEADS = new Set(["fish", "beverages", "alcoholic beverage", "nuts", "seeds", "spices", "cereals", "candies", "snacks", "soup"]);

/**
 * +0.5 when the typed words name the food's head, or, under a class head ("Fish, salmon", "Beverages, coffee"),
 * its second part; -1 when they name neither, or only a food's kind ("banana" is not "Pepper, banana").
 */
const leadScore = (typed: readonly string[], name: string) => {
  const [first = "", second = ""] = name.replace(/\([^)]*\)/g, " ").split(",");
  const named = (part: string) => {
    const words = searchWords(part);
    const count = words.filter((word) => typed.some((t) => names(t, word))).length;
    return { all: words.length > 0 && count === words.length, none: count === 0 };
  };
  const head = named(first);
  const next = named(second);
  const classHead = CLASS_HEADS.has(searchWords(first).join(" "));
  if (head.all || (classHead && next.all)) return 0.5;
  return head.none && (next.none || !classHead) ? -1 : 0;
};

const score = (typed: readonly string[], { name, category }: Candidate) => {
  const words = namingWords(name);
  const head = headWords(name);
  const extra = words.filter((word) => !typed.some((t) => names(t, word)) && !isPreparation(word));
  return (
    preparation(words, typed, category, head) -
    0.1 * extra.length -
    0.3 * extra.filter((word) => ODD.has(word)).length +
    leadScore(typed, name) -
    (/\b[A-Z]{3,}\b/.test(name) ? 1 : 0) -
    (SIDELINED.has(category) ? 0.5 : 0)
  );
};

/**
 * The food `typed` (database words) means among `candidates` (search's order breaks ties), or null when none has
 * every typed word among the words that name it. The plainest food wins: the fewest words beyond those typed,
 * no brand, no odd form; `inHead` says every typed word is in its name before the first comma.
 */
export const chooseFood = <C extends Candidate>(typed: readonly string[], candidates: readonly C[]): { food: C; inHead: boolean } | null => {
  let best: { food: C; score: number } | null = null;
  for (const food of candidates) {
    const words = namingWords(food.name);
    if (!typed.every((t) => words.some((word) => names(t, word)))) continue;
    const s = score(typed, food);
    if (!best || s > best.score) best = { food, score: s };
  }
  if (!best) return null;
  const head = headWords(best.food.name);
  return { food: best.food, inHead: typed.every((t) => head.some((word) => names(t, word))) };
};
