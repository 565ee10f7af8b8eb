import secureJson from "secure-json-parse";
import { AppError } from "@fit/contracts";

/** No payload of the API nests deeper than a handful of levels; 32 leaves room and stops stack-deep bodies. */
const MAX_DEPTH = 32;

/**
 * Whether JSON text nests arrays and objects deeper than `max`, counted in one pass without recursion, so a
 * 60 KB body of 30 000 brackets is refused before anything walks it recursively (and overflows the stack).
 */
const nestsDeeperThan = (text: string, max: number): boolean => {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash escapes the next character, a quote included
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
};

/**
 * PostgreSQL text cannot hold NUL; refusing it wherever text arrives (bodies here, query strings and path
 * parameters in the app's hook) keeps every string field, present and future, storable.
 */
export const refuseNul = (...texts: unknown[]) => {
  if (texts.some((text) => typeof text === "string" && text.includes("\0"))) {
    throw new AppError("validation", "text must not contain NUL characters");
  }
};

const reviveWithoutNul = (key: string, value: unknown) => {
  refuseNul(key, value);
  return value;
};

/**
 * The one JSON body parser of every process: empty, malformed, too deeply nested, NUL-carrying and
 * prototype-poisoning bodies are 400s in the envelope (docs/security.md#9-body-limits-and-prototype-poisoning).
 */
export const parseJsonBody = (text: string): unknown => {
  if (text.trim() === "") throw new AppError("validation", "body must not be empty");
  if (nestsDeeperThan(text, MAX_DEPTH)) throw new AppError("validation", `body must not nest deeper than ${MAX_DEPTH} levels`);
  try {
    // JSON can spell NUL only as the escape \u0000 (a raw control character is a syntax error), so a body without
    // one skips the reviver, which makes a small body's parse ~4 times as dear.
    const reviver = text.includes("\\u0000") ? reviveWithoutNul : undefined;
    return secureJson.parse(text, reviver, { protoAction: "error", constructorAction: "error" });
  } catch (error) {
    if (error instanceof AppError) throw error;
    const poisoned = error instanceof SyntaxError && /prototype|constructor/i.test(error.message);
    throw new AppError("validation", poisoned ? "body contains a forbidden __proto__ or constructor key" : "body is not valid JSON");
  }
};
