/**
 * OCR's usual confusions beside digits (O↔0, l/I/|↔1, S↔5), undone where a letter touches a digit: "3O:12" →
 * "30:12", "l20" → "120". A letter between letters is left alone ("CALORIES" stays). g↔9 is the label parser's
 * to undo: only it knows a number there must carry grams.
 */
const CONFUSED = "OoIl|S";
/** A letter OCR does not mistake for a digit: beside one, the confusable letter is part of a word ("CALORIES320"). */
const WORD = `[${[..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"].filter((c) => !CONFUSED.includes(c)).join("")}]`;
const BESIDE_DIGIT = new RegExp(`(?<=\\d[.:,]?)[OoIl|S](?!${WORD})|(?<!${WORD})[OoIl|S](?=[.:,]?\\d)`, "g");
const AS_DIGIT: Record<string, string> = { O: "0", o: "0", I: "1", l: "1", "|": "1", S: "5" };

export const fixDigits = (line: string): string => {
  let previous;
  let fixed = line;
  // "lOO" needs two passes: each fixed letter makes its neighbour touch a digit.
  do {
    previous = fixed;
    fixed = fixed.replace(BESIDE_DIGIT, (letter) => AS_DIGIT[letter]!);
  } while (fixed !== previous);
  return fixed;
};
