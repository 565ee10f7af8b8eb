const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of a calendar date "YYYY-MM-DD" (the date is a day, not an instant in a zone). */
export const dayNumber = (date: string) => Math.round(Date.parse(`${date}T00:00:00.000Z`) / DAY_MS);

export const dateOfDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

export const addDays = (date: string, days: number) => dateOfDay(dayNumber(date) + days);
