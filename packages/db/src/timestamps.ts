import pg from "pg";

const TIMESTAMPTZ: number = pg.types.builtins.TIMESTAMPTZ;
const parseAnyTimestamptz = pg.types.getTypeParser(TIMESTAMPTZ, "text") as (text: string) => Date | number | null;

const digit = (text: string, at: number) => text.charCodeAt(at) - 48;
const twoDigits = (text: string, at: number) => digit(text, at) * 10 + digit(text, at + 1);

/**
 * A timestamptz as PostgreSQL writes it (DateStyle ISO) into a Date. pg's own parser (postgres-date) runs three
 * regular expressions per value: ~10 % of body-metrics' CPU when it lists a page of 50 readings
 * (docs/performance.md). This one reads the layout PostgreSQL writes for the years 1000–9999 with an offset in
 * whole hours or hours and minutes, `2026-11-29 10:14:44.123456+05:30`, and hands anything else (BC, other years,
 * ±infinity, an offset with seconds) to pg's parser.
 */
export function parseTimestamptz(text: string): Date | number | null {
  const length = text.length;
  if (
    length < 22 ||
    text[4] !== "-" || text[7] !== "-" || text[10] !== " " || text[13] !== ":" || text[16] !== ":" ||
    text.charCodeAt(0) < 49 || text.charCodeAt(0) > 57
  ) return parseAnyTimestamptz(text);
  let at = 19;
  let ms = 0;
  if (text[at] === ".") {
    // Milliseconds are the first three digits of the fraction, truncated as a Date truncates.
    for (let place = 100, d = digit(text, ++at); d >= 0 && d <= 9; d = digit(text, ++at), place /= 10) {
      if (place >= 1) ms += d * place;
    }
  }
  const sign = text[at] === "+" ? 1 : text[at] === "-" ? -1 : 0;
  const offsetEnd = text[at + 3] === ":" ? at + 6 : at + 3;
  if (sign === 0 || offsetEnd !== length) return parseAnyTimestamptz(text);
  const offsetMinutes = twoDigits(text, at + 1) * 60 + (offsetEnd === at + 6 ? twoDigits(text, at + 4) : 0);
  const days = daysSinceEpoch(twoDigits(text, 0) * 100 + twoDigits(text, 2), twoDigits(text, 5), twoDigits(text, 8));
  const time = twoDigits(text, 11) * 3_600_000 + twoDigits(text, 14) * 60_000 + twoDigits(text, 17) * 1000 + ms;
  return new Date(days * 86_400_000 + time - sign * offsetMinutes * 60_000);
}

/**
 * Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's days_from_civil, for
 * years from 1 on): arithmetic the JIT keeps inline, where `Date.UTC` is a call into V8's runtime (a parse
 * took ~280 ns with it and ~180–240 ns without, in a loop on the 2-core machine).
 */
function daysSinceEpoch(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  return era * 146_097 + yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear - 719_468;
}

/** pg's type parsers with parseTimestamptz for timestamptz, for a pool's `types`. */
export const driverTypes = {
  getTypeParser: ((oid: number, format?: "text" | "binary"): unknown =>
    oid === TIMESTAMPTZ && format !== "binary" ? parseTimestamptz : (pg.types.getTypeParser(oid, format) as unknown)) as typeof pg.types.getTypeParser,
};
