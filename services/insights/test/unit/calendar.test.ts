import { describe, expect, it } from "vitest";
import { dateOfDay, dayNumber } from "../../src/domain/calendar.ts";

const DAY_MS = 86_400_000;
/** What the arithmetic replaces: Date's own parsing and formatting. */
const byDate = {
  dayNumber: (date: string) => Math.round(Date.parse(`${date}T00:00:00.000Z`) / DAY_MS),
  dateOfDay: (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10),
};

describe("calendar", () => {
  it("turns every day from 1600 to 2400 into the date Date gives, and that date back into the day", () => {
    let mismatches = 0;
    for (let day = byDate.dayNumber("1600-01-01"); day <= byDate.dayNumber("2400-12-31"); day++) {
      const date = dateOfDay(day);
      if (date !== byDate.dateOfDay(day) || dayNumber(date) !== day) mismatches++;
    }
    expect(mismatches).toBe(0);
  });

  it("agrees with Date at the ends of the four-digit years and across leap days", () => {
    for (const date of ["0000-01-01", "0000-02-29", "0000-03-01", "0001-01-01", "1900-02-28", "1900-03-01", "2000-02-29", "2100-03-01", "9999-12-31"]) {
      expect([date, dayNumber(date)]).toEqual([date, byDate.dayNumber(date)]);
      expect(dateOfDay(dayNumber(date))).toBe(date);
    }
  });

  it("answers like Date.parse for a day past its month's end, and NaN for what is not a date", () => {
    for (const date of ["2026-02-29", "2026-02-31", "2026-04-31", "2026-13-01", "2026-00-10", "2026-01-00", "2026-1-01", "20260101", "+10000-01-01", "abcd-ef-gh", ""]) {
      expect([date, dayNumber(date)]).toEqual([date, byDate.dayNumber(date)]);
    }
    expect(dayNumber("2026-02-30")).toBe(dayNumber("2026-03-02"));
  });

  it("formats days beyond the four-digit years, and fractions of a day, as Date does, and refuses NaN alike", () => {
    for (const day of [-719_529, 2_932_897, 20_000.5, -0.25]) expect([day, dateOfDay(day)]).toEqual([day, byDate.dateOfDay(day)]);
    expect(() => dateOfDay(Number.NaN)).toThrow(RangeError);
  });
});
