// The words search compares: a food's description and a typed query are cut up the same way, so "Chicken,
// broilers or fryers, breast" and "chicken breast" meet on "chicken" and "breast".

/** Words that say nothing about which food is meant. */
const STOP_WORDS = new Set(["a", "an", "and", "or", "of", "the", "with", "without", "in", "on", "for", "to", "w", "wo"]);

/** The lowercase letter-and-digit runs of `text` that name something, each once, in order. */
export const searchWords = (text: string): string[] => {
  const words = text.toLowerCase().normalize("NFKD").replace(/\p{M}/gu, "").split(/[^\p{L}\p{N}]+/u);
  return [...new Set(words.filter((word) => word.length >= 2 && !STOP_WORDS.has(word)))];
};

/** At most this many typed words count; the rest of a pasted paragraph only slows the search. */
export const MAX_QUERY_WORDS = 6;

/** Parentheses add detail ("(Includes foods for USDA's Food Distribution Program)"), not what the food is. */
const withoutAsides = (text: string) => text.replace(/\([^)]*\)/g, " ");

/**
 * A food's head: the words before the first comma, which say what the food is ("Bananas" in "Bananas, raw";
 * "Bread" in "Bread, banana"). A match there ranks first, and a query that is the whole head ranks higher still.
 */
export const headWords = (description: string) => searchWords(withoutAsides(description).split(",")[0] ?? "");

/** A food's words with whether each is in its head. */
export const descriptionTerms = (description: string) => {
  const head = new Set(headWords(description));
  return searchWords(description).map((word) => ({ word, inHead: head.has(word) }));
};

/** Categories whose foods are rarely what a typed word means: a generic food of the same name ranks above them. */
const SIDELINED_CATEGORIES = new Map([
  ["Baby Foods", 0.3],
  ["Fast Foods", 0.3],
  ["Restaurant Foods", 0.3],
  ["American Indian/Alaska Native Foods", 0.3],
  ["Sausages and Luncheon Meats", 0.15],
]);

/**
 * What is added to a food's match score: less for a brand (SR Legacy writes brands in capitals: "ODWALLA"), a
 * sidelined category, and every word a description adds (a parenthesis does not count), a little more for the raw
 * food, so that among equal matches the plainest food comes first: "Bananas, raw" before "Bananas, dehydrated, or
 * banana powder", "Egg, whole, raw, fresh" before "Egg, whole, dried".
 */
export const rankBias = (description: string, category: string) => {
  const words = searchWords(withoutAsides(description));
  const branded = /\b[A-Z]{3,}\b/.test(withoutAsides(description));
  // The length term only breaks ties: shorter first.
  return -(SIDELINED_CATEGORIES.get(category) ?? 0) - (branded ? 0.3 : 0) - 0.02 * words.length + (words.includes("raw") ? 0.05 : 0) - description.length / 1e5;
};
