const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of a calendar date "YYYY-MM-DD" (the date is a day, not an instant in a zone). */
export const dayNumber = (date: string) => Math.round(Date.parse(`${date}T00:00:00.000Z`) / DAY_MS);

export const dateOfDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

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
