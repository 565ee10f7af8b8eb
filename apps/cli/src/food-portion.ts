import { InvalidArgumentError } from "commander";
import type { FoodPortionChoice } from "@fit/contracts";
import { decimal } from "./args.ts";

const AMOUNT = String.raw`(\d+(?:[.,]\d+)?)`;
const GRAMS = new RegExp(`^${AMOUNT}\\s*(?:g|grams?)$`, "i");
const SERVINGS = new RegExp(`^${AMOUNT}\\s*servings?$`, "i");
/** `3` is the food's measure number 3; `2x3` (or `2×3`, `2 x 3`) is two of it: count first, as "2 × 1 cup". */
const MEASURE = new RegExp(`^(?:${AMOUNT}\\s*[x×*]\\s*)?(\\d+)$`, "i");

export const PORTION_HELP =
  "grams (150g), a measure's number from `fit food show` (3), that many of it (2x3: two of measure 3), or servings (1,5 servings)";

/**
 * `--portion` as a person types it, into the API's portion choice. A bare number is a measure's number, never
 * grams: `150` grams written without the `g` would otherwise log a different amount from the one meant.
 * Bounds are the contract's to check, so its message is the server's.
 */
export const portion = (value: string): FoodPortionChoice => {
  const text = value.trim();
  const grams = GRAMS.exec(text);
  if (grams) return { grams: decimal(grams[1]!) };
  const servings = SERVINGS.exec(text);
  if (servings) return { servings: decimal(servings[1]!) };
  const measure = MEASURE.exec(text);
  if (measure) return { measure: Number(measure[2]), ...(measure[1] === undefined ? {} : { count: decimal(measure[1]) }) };
  throw new InvalidArgumentError(`not a portion: ${PORTION_HELP}`);
};

/** `--count` beside `--portion <measure>`: the portion with that count, or a usage error for any other portion. */
export const withCount = (choice: FoodPortionChoice, count: number | undefined): FoodPortionChoice | string => {
  if (count === undefined) return choice;
  if (choice.measure === undefined) return "--count goes with a measure's number (--portion 3 --count 2)";
  if (choice.count !== undefined) return "give the count once: --portion 2x3, or --portion 3 --count 2";
  return { ...choice, count };
};
