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
