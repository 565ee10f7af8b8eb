import { InvalidArgumentError } from "commander";
import { isCalendarDate } from "@fit/contracts";

/** Option parsers: commander reports what they throw as a usage error, before any request. */
export const number = (value: string): number => {
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n)) throw new InvalidArgumentError("not a number");
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
