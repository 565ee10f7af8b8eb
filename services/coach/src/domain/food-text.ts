/** Vulgar fractions people type or paste; spaced so "1½" reads as the mixed number "1 1/2". */
const fractionChars: Readonly<Record<string, string>> = { "½": " 1/2", "⅓": " 1/3", "⅔": " 2/3", "¼": " 1/4", "¾": " 3/4", "⅛": " 1/8" };

/** Lower case, accents and apostrophes dropped (café → cafe, shepherd's → shepherds), "&" read as "and", as aliases are written. */
export const normalizeText = (text: string): string =>
  text
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/[½⅓⅔¼¾⅛]/g, (c) => fractionChars[c] ?? c)
    .replace(/⁄/g, "/")
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .replace(/['’`]/g, "");

// A number may carry a fraction ("1/2") or a percent sign; "2%" is a fat level, never a quantity.
const tokenPattern = /\d+(?:\.\d+)?(?:\/\d+(?:\.\d+)?)?%?|[a-z]+/g;

/** Words and numbers of normalized text; "200g" gives "200", "g". */
export const tokenize = (normalized: string): string[] => normalized.match(tokenPattern) ?? [];

/** The word and what it would be without a plural ending, so "eggs", "glasses" and "berries" find "egg", "glass", "berry". */
export const singularForms = (word: string): string[] => {
  const forms = [word];
  if (word.length > 3 && word.endsWith("ies")) forms.push(`${word.slice(0, -3)}y`);
  if (word.length > 2 && word.endsWith("es")) forms.push(word.slice(0, -2));
  if (word.length > 1 && word.endsWith("s")) forms.push(word.slice(0, -1));
  return forms;
};

/**
 * Words of a sentence around a food that never name one ("Is a banana a good snack?", "I had two eggs for
 * breakfast"): left out of what the food database is asked, which wants every word asked to name the food.
 */
export const sentenceWords: ReadonlySet<string> = new Set([
  "i", "im", "ive", "me", "my", "we", "you", "it", "its", "that", "this", "these", "those", "there", "is", "are", "was", "were", "be",
  "am", "do", "does", "did", "can", "could", "should", "would", "will", "may", "might", "have", "has", "had", "having", "ate", "eat",
  "eating", "eaten", "just", "also", "then", "for", "at", "as", "to", "in", "today", "tonight", "yesterday", "morning", "afternoon",
  "evening", "night", "breakfast", "lunch", "dinner", "supper", "snack", "snacks", "meal", "good", "bad", "ok", "okay", "fine",
  "healthy", "idea", "choice", "option", "how", "many", "much", "what", "about", "calories", "kcal", "protein", "enough", "too", "the",
]);

/** Words that join two foods: "eggs and toast", "toast with butter", "peanut butter on toast". */
const joinerWords: readonly string[] = ["and", "with", "plus", "on"];

const separators = new RegExp(String.raw`\s+(?:${joinerWords.join("|")})\s+|[,;+&\r\n]`, "gi");

/** One food's words in the text, and whether an "and" (or "&") joins it to the part before: "mac" and "cheese" may be one food. */
export interface Part {
  text: string;
  afterAnd: boolean;
}

/**
 * The text cut at commas, the joiner words, "+", "&", ";" and line breaks, each part trimmed and parts without
 * a letter or digit dropped, so each food keeps its own amount. A separator inside a match of `keepWhole`
 * ("2 and a half") does not cut.
 */
export const splitParts = (text: string, keepWhole: RegExp): Part[] => {
  const kept = [...text.matchAll(keepWhole)].map((m) => ({ from: m.index, to: m.index + m[0].length }));
  const parts: Part[] = [];
  let start = 0;
  let afterAnd = false;
  for (const separator of text.matchAll(separators)) {
    if (kept.some(({ from, to }) => separator.index >= from && separator.index < to)) continue;
    parts.push({ text: text.slice(start, separator.index), afterAnd });
    afterAnd = ["and", "&"].includes(separator[0].trim().toLowerCase());
    start = separator.index + separator[0].length;
  }
  parts.push({ text: text.slice(start), afterAnd });
  return parts.map((part) => ({ ...part, text: part.text.trim() })).filter((part) => /[\p{L}\p{N}]/u.test(part.text));
};
