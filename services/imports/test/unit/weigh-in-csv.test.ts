import { describe, expect, it } from "vitest";
import { csvRecords, MAX_RECORD_BYTES, UnreadableFile } from "../../src/domain/csv.ts";
import { instantOf } from "../../src/domain/local-time.ts";
import { rowIdOf } from "../../src/domain/row-id.ts";
import { recogniseWeighIns, weighInOf, type ImportOptions } from "../../src/domain/weigh-in-csv.ts";

const UTC: ImportOptions = { tz: "UTC", unit: undefined };

/** The file's bytes cut into pieces of `size`, as the store hands them out. */
async function* pieces(text: string | Buffer, size: number) {
  const bytes = Buffer.from(text);
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

/** Every weigh-in (or refusal) of a whole file. */
const readAll = async (text: string, options = UTC, size = 7) => {
  const recognised = recogniseWeighIns(Buffer.from(text), options);
  if (!recognised) throw new Error("not recognised");
  const rows = [];
  const all = pieces(Buffer.from(text).subarray(recognised.offset), size);
  for await (const record of csvRecords(all, recognised.offset, recognised.line)) rows.push({ line: record.line, ...weighInOf(record, recognised.format, options) });
  return { layout: recognised.format.layout, rows };
};

describe("weigh-in exports", () => {
  it("reads a Withings export: kg, fat mass as a percentage, times in the given zone", async () => {
    const file = '\ufeffDate,"Weight (kg)","Fat mass (kg)","Bone mass (kg)","Muscle mass (kg)","Hydration (kg)",Comments\n' +
      '"2026-01-15 07:32:10",80.5,16.1,3.2,60.1,45.0,\n2026-01-16 07:30:00,80.1,,,,,"after ""run"", tired"\n';
    const { layout, rows } = await readAll(file, { tz: "Europe/Berlin", unit: undefined });
    expect(layout).toBe("withings");
    expect(rows).toEqual([
      { line: 2, weighIn: { externalId: `weigh-in:${Date.UTC(2026, 0, 15, 6, 32, 10)}`, ts: Date.UTC(2026, 0, 15, 6, 32, 10), weightKg: 80.5, bodyFatPct: 20 } },
      { line: 3, weighIn: { externalId: `weigh-in:${Date.UTC(2026, 0, 16, 6, 30)}`, ts: Date.UTC(2026, 0, 16, 6, 30), weightKg: 80.1, bodyFatPct: null } },
    ]);
  });

  it("reads a Withings export in pounds, rounded to two decimals of a kilogram", async () => {
    const { rows } = await readAll('Date,"Weight (lb)","Fat mass (lb)"\n2026-02-01 08:00:00,180.0,36.0\n');
    expect(rows[0]).toMatchObject({ weighIn: { weightKg: 81.65, bodyFatPct: 20 } });
  });

  it("reads Fitbit's export under its title, month first, in the unit asked for", async () => {
    const { layout, rows } = await readAll('Body\nDate,Weight,BMI,Fat\n"01-31-2026","176.4","24.1","0"\n', { tz: "America/New_York", unit: "lb" });
    expect(layout).toBe("fitbit");
    // A date without a time is placed at local noon; 0 % fat means none measured.
    expect(rows).toEqual([{ line: 3, weighIn: expect.objectContaining({ ts: Date.UTC(2026, 0, 31, 17), weightKg: 80.01, bodyFatPct: null }) }]);
  });

  it("reads Renpho's export with a 12-hour clock and body fat in percent", async () => {
    const { layout, rows } = await readAll("Time of Measurement,Weight(kg),BMI,Body Fat(%),Muscle Mass(kg)\n\"01/20/2026, 7:05:00 PM\",79.9,24.0,19.5,55\n");
    expect(layout).toBe("renpho");
    expect(rows[0]).toMatchObject({ weighIn: { ts: Date.UTC(2026, 0, 20, 19, 5), weightKg: 79.9, bodyFatPct: 19.5 } });
  });

  it("reads Libra's export: metadata, semicolons, ISO times with their zone, its unit", async () => {
    const { layout, rows } = await readAll("#Version:6\n#Units:lb\n\n#date;weight;weight trend;body fat;body fat trend;log\n2026-03-01T06:45:34.000Z;170.2;170.5;;;\n", { tz: "Asia/Tokyo", unit: "kg" });
    expect(layout).toBe("libra");
    expect(rows).toEqual([{ line: 5, weighIn: expect.objectContaining({ ts: Date.UTC(2026, 2, 1, 6, 45, 34), weightKg: 77.2, bodyFatPct: null }) }]);
  });

  it("reads any other date-and-weight file as Happy Scale's", async () => {
    const { layout, rows } = await readAll("Date,Weight,Body Fat\n2026-03-02,75.5,18\n");
    expect(layout).toBe("happy_scale");
    expect(rows[0]).toMatchObject({ weighIn: { ts: Date.UTC(2026, 2, 2, 12), weightKg: 75.5, bodyFatPct: 18 } });
  });

  it("reads the layout `fit import` documented before: time, weight_kg, body_fat_pct", async () => {
    const { layout, rows } = await readAll("time,weight_kg,body_fat_pct,note\n2026-03-02T07:00:00Z,75.5,18,light\n");
    expect(layout).toBe("happy_scale");
    expect(rows[0]).toMatchObject({ weighIn: { ts: Date.UTC(2026, 2, 2, 7), weightKg: 75.5, bodyFatPct: 18 } });
  });

  it("refuses rows it cannot read, with the reason and the line", async () => {
    const { rows } = await readAll('Date,"Weight (kg)"\nyesterday,80\n2026-02-30 07:00,80\n2026-01-01 07:00,\n2026-01-01 08:00,900\n2099-01-01 08:00,80\n');
    expect(rows).toEqual([
      { line: 2, refused: '"yesterday" is not a date this import reads' },
      { line: 3, refused: '"2026-02-30 07:00" is not a date this import reads' },
      { line: 4, refused: "no weight" },
      { line: 5, refused: "weightKg must be between 9 and 320 kg" },
      { line: 6, refused: "ts must not be more than a day in the future" },
    ]);
  });

  it("does not take a file without a date and weight header", () => {
    expect(recogniseWeighIns(Buffer.from('{"text":"hello"}\n'), UTC)).toBeUndefined();
    expect(recogniseWeighIns(Buffer.from("name,kcal\napple,95\n"), UTC)).toBeUndefined();
    expect(recogniseWeighIns(Buffer.from("Date,Weight"), UTC)).toBeUndefined();
  });
});

describe("records", () => {
  it("resumes at any record's offset with the same records as one pass", async () => {
    const text = 'a,b\n"multi\nline",2\r\n\n3,4\n5,6';
    const all = [];
    for await (const record of csvRecords(pieces(text, 3), 0, 1)) all.push(record);
    expect(all.map((r) => [r.text, r.line])).toEqual([["a,b", 1], ['"multi\nline",2', 2], ["3,4", 5], ["5,6", 6]]);
    const { offset, line } = all[1]!.next;
    const rest = [];
    for await (const record of csvRecords(pieces(Buffer.from(text).subarray(offset), 2), offset, line)) rest.push(record);
    expect(rest).toEqual(all.slice(2));
  });

  it("fails on a line longer than the limit", async () => {
    const read = async () => {
      for await (const _ of csvRecords(pieces(`a,${"x".repeat(MAX_RECORD_BYTES + 1)}\n`, 4096), 0, 1)) void _;
    };
    await expect(read()).rejects.toBeInstanceOf(UnreadableFile);
  });
});

describe("times and ids", () => {
  it("reads a zone's wall clock across a change of clocks, and a stated offset as stated", () => {
    expect(instantOf("2026-03-29 03:30", null, "Europe/Berlin")).toBe(Date.UTC(2026, 2, 29, 1, 30));
    expect(instantOf("2026-03-28 03:30", null, "Europe/Berlin")).toBe(Date.UTC(2026, 2, 28, 2, 30));
    expect(instantOf("2026-03-28T03:30:00+05:30", null, "Europe/Berlin")).toBe(Date.UTC(2026, 2, 27, 22));
    expect(instantOf("15.01.2026", "07:00", "UTC")).toBe(Date.UTC(2026, 0, 15, 7));
  });

  it("gives a row the same UUID v5 in the same import only", () => {
    const a = rowIdOf("0b7f5c2e-8d4a-4f7e-9c1a-3e5d7f9b1a2c", "weigh-in:1");
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(rowIdOf("0b7f5c2e-8d4a-4f7e-9c1a-3e5d7f9b1a2c", "weigh-in:1")).toBe(a);
    expect(rowIdOf("1b7f5c2e-8d4a-4f7e-9c1a-3e5d7f9b1a2c", "weigh-in:1")).not.toBe(a);
  });
});
