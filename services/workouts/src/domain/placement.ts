import { utcDay } from "@fit/contracts";

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/** `tz` is the client's getTimezoneOffset(): minutes from local time to UTC (UTC−5 sends 300). */
export const localDay = (now: number, tz: number): string => utcDay(now - tz * MINUTE_MS);

/** 0 = Sunday, as Date#getDay, of a calendar day. */
export const weekdayOf = (date: string): number => new Date(`${date}T00:00:00Z`).getUTCDay();

interface Placement {
  /** The local day the client sent, or its today. */
  date: string;
  tz: number;
  now: number;
  /** What the text said: days back from `date`, and the local minute of the day if any. */
  when: { dayOffset: number; minuteOfDay: number | null };
  durationS: number;
}

/**
 * When a described workout started, in UTC. A stated time of day wins; without one, a workout of today is
 * taken to have just ended, and one of another day to have started at local noon
 * (docs/decisions/0017-described-workouts-placed-in-local-time.md).
 */
export const startOfDescribedWorkout = ({ date, tz, now, when, durationS }: Placement): number => {
  const localMidnightAsUtc = Date.parse(`${date}T00:00:00Z`) + when.dayOffset * DAY_MS;
  const toUtc = (localMs: number) => localMs + tz * MINUTE_MS;
  if (when.minuteOfDay !== null) return toUtc(localMidnightAsUtc + when.minuteOfDay * MINUTE_MS);
  if (when.dayOffset === 0 && date === localDay(now, tz)) return Math.max(toUtc(localMidnightAsUtc), now - durationS * 1000);
  return toUtc(localMidnightAsUtc + 12 * 60 * MINUTE_MS);
};

/** The last day a calendar date can name; the week of 9999-12-31 ends there, not in year 10000. */
const LAST_DAY_MS = Date.parse("9999-12-31T00:00:00Z");

/** The ISO week (Monday to Sunday, UTC) holding `date`, as days and as the [from, to) instants. */
export const isoWeekOf = (date: string) => {
  const day = Date.parse(`${date}T00:00:00Z`);
  const monday = day - ((weekdayOf(date) + 6) % 7) * DAY_MS;
  return { from: utcDay(monday), to: utcDay(Math.min(monday + 6 * DAY_MS, LAST_DAY_MS)), fromMs: monday, toMs: monday + 7 * DAY_MS };
};
