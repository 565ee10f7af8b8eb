const DAY_MS = 86_400_000;

// Dates and day numbers convert by arithmetic on the proleptic Gregorian calendar (Howard Hinnant's
// days_from_civil and civil_from_days): a trend converts a few hundred per answer, and Date.parse and
// toISOString took ~1 µs each, most of the insights service's CPU per dashboard (docs/performance.md). Anything
// outside "YYYY-MM-DD" with a month 01–12, a day 01–31 and a year 0000–9999 goes to Date as before, so both
// paths answer alike (a day past a month's end runs into the next month, as Date.parse has it).
// The algorithms count years from March, so a leap day ends its year.
const DAYS_0000_03_01_TO_1970 = 719_468;
const DAYS_PER_ERA = 146_097;
const FIRST_DAY = -719_528; // 0000-01-01
const LAST_DAY = 2_932_896; // 9999-12-31

const digit = (text: string, at: number) => {
  const d = text.charCodeAt(at) - 48;
  return d >= 0 && d <= 9 ? d : NaN;
};

const daysFromCivil = (year: number, month: number, day: number) => {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  return era * DAYS_PER_ERA + yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear - DAYS_0000_03_01_TO_1970;
};

/** Days since 1970-01-01 of a calendar date "YYYY-MM-DD" (the date is a day, not an instant in a zone). */
export const dayNumber = (date: string) => {
  const year = digit(date, 0) * 1000 + digit(date, 1) * 100 + digit(date, 2) * 10 + digit(date, 3);
  const month = digit(date, 5) * 10 + digit(date, 6);
  const day = digit(date, 8) * 10 + digit(date, 9);
  const plain = date.length === 10 && date[4] === "-" && date[7] === "-" && month >= 1 && month <= 12 && day >= 1 && day <= 31;
  return plain ? daysFromCivil(year, month, day) : Math.round(Date.parse(`${date}T00:00:00.000Z`) / DAY_MS);
};

const twoDigits = (n: number) => (n < 10 ? `0${n}` : `${n}`);

export const dateOfDay = (day: number) => {
  if (!Number.isInteger(day) || day < FIRST_DAY || day > LAST_DAY) return new Date(day * DAY_MS).toISOString().slice(0, 10);
  const z = day + DAYS_0000_03_01_TO_1970;
  const era = Math.floor(z / DAYS_PER_ERA);
  const dayOfEra = z - era * DAYS_PER_ERA;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const m = Math.floor((5 * dayOfYear + 2) / 153);
  const month = m < 10 ? m + 3 : m - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return `${String(year).padStart(4, "0")}-${twoDigits(month)}-${twoDigits(dayOfYear - Math.floor((153 * m + 2) / 5) + 1)}`;
};

export const addDays = (date: string, days: number) => dateOfDay(dayNumber(date) + days);

// One formatter per zone: building one costs a hundred times formatting with it (docs/performance.md).
const dayFormatters = new Map<string, Intl.DateTimeFormat>();

/** The calendar date "YYYY-MM-DD" of an instant in a time zone: the one rule for which local day a reading is on. */
export const localDay = (ms: number, timeZone: string) => {
  let formatter = dayFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
    dayFormatters.set(timeZone, formatter);
  }
  return formatter.format(ms);
};
