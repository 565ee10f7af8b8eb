import { InvalidArgumentError } from "commander";
import { isCalendarDate } from "@fit/contracts";
import { label, wordOf } from "./labels.ts";
import { localDay } from "./output.ts";

/** Option parsers: commander reports what they throw as a usage error, before any request. */

/** A number as people type it: a decimal comma reads as a point (`81,5` is 81.5), as the web app's forms read it. NaN if none. */
export const decimal = (value: string): number => {
  const text = value.trim().replace(",", ".");
  return text === "" ? Number.NaN : Number(text);
};

export const number = (value: string): number => {
  const n = decimal(value);
  if (!Number.isFinite(n)) throw new InvalidArgumentError("not a number");
  return n;
};

export const instant = (value: string): number => {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new InvalidArgumentError("not an ISO 8601 date or time (e.g. 2026-11-25T07:30)");
  return ms;
};

export const day = (value: string): string => {
  if (!isCalendarDate(value)) throw new InvalidArgumentError("not a day in the form YYYY-MM-DD");
  return value;
};

const DAY_WORDS: Record<string, number> = { yesterday: -1, today: 0, tomorrow: 1 };

/** A day as `day` takes it, or `today`, `yesterday`, `tomorrow`: the user's own, in their time zone. */
export const dayOrWord = (value: string): string => {
  const offset = DAY_WORDS[value.trim().toLowerCase()];
  if (offset === undefined) return day(value);
  const when = new Date();
  when.setDate(when.getDate() + offset);
  return localDay(when);
};

/** Whole seconds from `h:mm:ss` or `mm:ss`, or from a number of minutes (`45`, `32,5`). */
export const seconds = (value: string): number => {
  const clock = /^(?:(\d+):)?(\d{1,2}):(\d{2})$/.exec(value.trim());
  if (clock) return Number(clock[1] ?? 0) * 3600 + Number(clock[2]) * 60 + Number(clock[3]);
  try {
    return Math.round(number(value) * 60);
  } catch {
    throw new InvalidArgumentError("not a duration: minutes (45) or h:mm:ss (1:05:00)");
  }
};

/** One of an enum's words, typed as a person reads it ("strength training", "left biceps") or as the API spells it. */
export const oneOf = <T extends string>(words: readonly T[]) => (value: string): T => {
  const word = wordOf(words, value);
  if (word === undefined) throw new InvalidArgumentError(`not one of: ${words.map(label).join(", ")}`);
  return word;
};

/** The options given, for a PATCH: a key sent as undefined would still count as a change asked for. */
export const onlyGiven = <T extends object>(fields: T): Partial<T> =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>;
