// Text plumbing shared by the rule-based workout parser's extractors.

/** The describe endpoint accepts at most 4000 characters; the parser never reads more whoever calls it. */
const MAX_CHARS = 4000;

/**
 * A number as people type it. Digit runs are bounded so that a regex built on it does constant work per
 * start position: a 4000-digit input cannot make `\d+` backtrack quadratically.
 */
export const NUM = String.raw`\d{1,6}(?:\.\d{1,3})?`;

/**
 * Lower-cased, capped, with typographic variants folded ("3×8", "5–10") and commas between digits read
 * the way people mean them: three digits after the comma is a thousands separator ("10,000 steps"),
 * one or two is a European decimal ("5,2 km").
 */
export const normalizeWorkoutText = (raw: string): string =>
  raw
    .slice(0, MAX_CHARS)
    .toLowerCase()
    .replace(/[×✕]/g, "x")
    .replace(/[‘’`´]/g, "'")
    .replace(/[–—]/g, "-")
    .replace(/(\d),(\d{3})(?!\d)/g, "$1$2")
    .replace(/(\d),(\d{1,2})(?!\d)/g, "$1.$2");

/** Shortest decimal rendering with at most two places: 5 → "5", 21.0975 → "21.1". */
export const formatNumber = (value: number) => String(Math.round(value * 100) / 100);

/**
 * The text the extractors still have to read. Each extractor blanks what it consumed, with spaces so
 * offsets stay valid, so that "8 min/mi" read as a pace is not read again as an 8-minute duration.
 */
export class MaskedText {
  #text: string;

  constructor(text: string) {
    this.#text = text;
  }

  get text() {
    return this.#text;
  }

  /** Runs a global regex over [start, end) of what is left and blanks every match `accept` returns true for. */
  consume(pattern: RegExp, accept: (match: RegExpExecArray) => boolean, start = 0, end = this.#text.length): void {
    const spans: (readonly [number, number])[] = [];
    for (const match of this.#text.slice(start, end).matchAll(pattern)) {
      const from = start + match.index;
      if (accept(Object.assign(match, { index: from }))) spans.push([from, from + match[0].length]);
    }
    this.blank(spans);
  }

  blank(spans: readonly (readonly [number, number])[]): void {
    if (spans.length === 0) return;
    const parts: string[] = [];
    let cursor = 0;
    for (const [from, to] of [...spans].sort((a, b) => a[0] - b[0])) {
      if (from < cursor) continue;
      parts.push(this.#text.slice(cursor, from), " ".repeat(to - from));
      cursor = to;
    }
    parts.push(this.#text.slice(cursor));
    this.#text = parts.join("");
  }

  /** Up to `length` characters before `index`, cut at the last clause break so "max hr 182, hr 150" reads 150 alone. */
  clauseBefore(index: number, length = 20): string {
    const window = this.#text.slice(Math.max(0, index - length), index);
    return window.slice(Math.max(window.lastIndexOf(","), window.lastIndexOf(";"), window.lastIndexOf("\n")) + 1);
  }

  after(index: number, length = 16): string {
    return this.#text.slice(index, index + length);
  }
}
