import pg from "pg";
import { describe, expect, it } from "vitest";
import { driverTypes, parseTimestamptz } from "../../src/timestamps.ts";

const pgParser = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ, "text");
const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** `instant` written as PostgreSQL writes a timestamptz at `offsetMinutes` east of UTC, with `fraction` (its digits, trailing zeros dropped as PostgreSQL drops them). */
function postgresText(instant: number, offsetMinutes: number, fraction: string): string {
  const local = new Date(instant + offsetMinutes * 60_000);
  const sign = offsetMinutes < 0 ? "-" : "+";
  const abs = Math.abs(offsetMinutes);
  const offset = `${sign}${pad(Math.floor(abs / 60))}${abs % 60 ? `:${pad(abs % 60)}` : ""}`;
  const trimmed = fraction.replace(/0+$/, "");
  return `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())} ${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}${trimmed ? `.${trimmed}` : ""}${offset}`;
}

describe("parseTimestamptz", () => {
  it("reads PostgreSQL's layout to the millisecond, truncating the microseconds, at any offset", () => {
    const offsets = [0, 60, -300, 330, -210, 345, 840, -720, 525];
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    for (let i = 0; i < 5_000; i++) {
      // Whole seconds from the year 1019 to 9987.
      const instant = Math.floor((-30_000_000_000_000 + random() * 283_000_000_000_000) / 1000) * 1000;
      const micros = Math.floor(random() * 1_000_000);
      const fraction = i % 5 === 0 ? "" : pad(micros, 6).slice(0, 1 + (i % 6));
      const offset = offsets[i % offsets.length]!;
      const text = postgresText(instant, offset, fraction);
      const expectedMs = Number((fraction + "000").slice(0, 3));
      expect(parseTimestamptz(text), text).toEqual(new Date(instant + expectedMs));
    }
  });

  it("agrees with pg's own parser wherever that one is exact", () => {
    for (const text of ["2026-11-29 10:14:44+00", "2026-11-29 10:14:44.5+00", "1999-12-31 23:59:59.999999-08", "2000-02-29 00:00:00.012+05:30", "1000-01-01 00:00:00+00", "9999-12-31 23:59:59.999+14"]) {
      expect(parseTimestamptz(text), text).toEqual(pgParser(text));
    }
  });

  it("hands what is not that layout to pg's parser: BC, years before 1000 or after 9999, infinity, an offset with seconds", () => {
    for (const text of ["0044-03-15 12:00:00+00 BC", "0999-01-01 00:00:00+00", "0050-06-01 10:00:00.25+01", "12345-01-01 00:00:00+00", "infinity", "-infinity", "1900-01-01 00:00:00+00:19:32", "1890-05-01 12:00:00.5-04:56:02"]) {
      expect(parseTimestamptz(text), text).toEqual(pgParser(text));
    }
  });

  it("is the parser a pool gets for timestamptz in text, and only for it", () => {
    expect(driverTypes.getTypeParser(pg.types.builtins.TIMESTAMPTZ, "text")).toBe(parseTimestamptz);
    expect(driverTypes.getTypeParser(pg.types.builtins.TIMESTAMPTZ)).toBe(parseTimestamptz);
    expect(driverTypes.getTypeParser(pg.types.builtins.TIMESTAMP, "text")).toBe(pg.types.getTypeParser(pg.types.builtins.TIMESTAMP, "text"));
    expect(driverTypes.getTypeParser(pg.types.builtins.INT4, "text")).toBe(pg.types.getTypeParser(pg.types.builtins.INT4, "text"));
  });
});
