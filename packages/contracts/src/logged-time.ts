import { AppError } from "./errors.ts";
import { CalendarDate, TimestampMs, utcDay } from "./common.ts";

/**
 * What is logged has happened: a weigh-in, measurement or workout start more than a day after the clock that
 * checks it, or a food day after the day that follows it in UTC, is refused. The day of slack is for a device or
 * client whose clock or time zone is off by hours; the rule is there for the wrong year or month
 * (docs/decisions/0064-nothing-logged-in-the-future.md). On the server the clock is the server's.
 */
const SLACK_MS = 86_400_000;
const AHEAD = "must not be more than a day in the future";

export const isTooFarAhead = (ms: number, now = Date.now()): boolean => ms > now + SLACK_MS;

/** A day is too far ahead when it is after UTC's tomorrow: the latest local today anywhere (UTC+14) is that day. */
export const isDayTooFarAhead = (day: string, now = Date.now()): boolean => day > utcDay(now + SLACK_MS);

export const LoggedTimestampMs = TimestampMs.refine((ms) => !isTooFarAhead(ms), { error: AHEAD }).meta({
  description: "Unix time in milliseconds; at most a day ahead of the server's clock (400 otherwise).",
});

export const LoggedCalendarDate = CalendarDate.refine((day) => !isDayTooFarAhead(day), { error: AHEAD }).meta({
  description: "Calendar day, YYYY-MM-DD; at most the day after the server's UTC today (400 otherwise).",
});

/** The same rule for a time no schema sees (a file's start, a described workout's placement): a 400 naming `what`. */
export const refuseIfTooFarAhead = (ms: number, what: string, now = Date.now()): void => {
  if (isTooFarAhead(ms, now)) throw new AppError("validation", `${what} ${AHEAD} (${new Date(ms).toISOString()})`);
};
