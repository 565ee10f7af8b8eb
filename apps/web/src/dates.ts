// "Today" is the user's calendar day, in the browser's time zone, never the server's UTC day.
const pad = (n: number) => String(n).padStart(2, "0");

export const localDay = (at: Date = new Date()): string => `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;

/** Local midnight of a YYYY-MM-DD day, in Unix ms. */
export const dayStart = (day: string): number => {
  const [y = 0, m = 1, d = 1] = day.split("-").map(Number);
  return new Date(y, m - 1, d).getTime();
};

export const addDays = (day: string, days: number): string => {
  const at = new Date(dayStart(day));
  at.setDate(at.getDate() + days);
  return localDay(at);
};

export const formatTime = (ms: number): string =>
  new Date(ms).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

export const formatDay = (day: string): string =>
  new Date(dayStart(day)).toLocaleDateString(undefined, { weekday: "short", day: "numeric", month: "short" });

/** A `datetime-local` input's value for an instant, to the minute, in the browser's time zone. */
export const localDateTime = (at: Date = new Date()): string => `${localDay(at)}T${pad(at.getHours())}:${pad(at.getMinutes())}`;

/** A real calendar day written YYYY-MM-DD (2026-02-30 is not one). */
export const isDay = (text: string): boolean => /^\d{4}-\d{2}-\d{2}$/.test(text) && localDay(new Date(dayStart(text))) === text;
