import { describe, expect, it } from "vitest";
import { appleRowOf, APPLE_ROOT, type AppleRow } from "../../src/domain/apple-health.ts";
import { UnreadableFile } from "../../src/domain/csv.ts";
import { MAX_ELEMENT_BYTES, rootChildren, type XmlElement } from "../../src/domain/xml-elements.ts";
import { APPLE_HEAD, APPLE_TAIL, appleRecord, appleWorkout, heartRate } from "../support/apple-export.ts";

async function* pieces(bytes: Buffer, size: number) {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

const children = async (text: string | Buffer, size = 13, offset = 0, line = 1) => {
  const bytes = Buffer.from(text);
  const all: XmlElement[] = [];
  for await (const element of rootChildren(pieces(bytes.subarray(offset), size), offset, line, APPLE_ROOT)) all.push(element);
  return all;
};

const rowsOf = async (text: string, size = 13) => (await children(text, size)).map(appleRowOf).filter((row) => row.kind !== "skipped");

const failure = async (text: string | Buffer) => {
  try {
    await children(text, 4096);
  } catch (error) {
    expect(error).toBeInstanceOf(UnreadableFile);
    return (error as Error).message;
  }
  throw new Error("read without failing");
};

const T = Date.UTC(2024, 2, 1, 6, 12, 9);

describe("Apple Health export.xml", () => {
  it("reads body mass in kg and lb, body fat as a fraction and waist in cm and in, with their offsets, skipping the rest", async () => {
    const file = APPLE_HEAD +
      heartRate(T - 60_000, 61) +
      appleRecord("BodyMass", "kg", 80.45, T, 60) +
      appleRecord("BodyMass", "lb", 180.2, T + 86_400_000, -300) +
      appleRecord("StepCount", "count", 1200, T) +
      appleRecord("BodyFatPercentage", "%", 0.215, T, 60) +
      appleRecord("WaistCircumference", "cm", 84.5, T, 60) +
      appleRecord("WaistCircumference", "in", 33.25, T + 86_400_000, 60) +
      appleRecord("BodyMass", "kg", "heavy", T) +
      APPLE_TAIL;
    const expected: AppleRow[] = [
      { kind: "weigh-in", externalId: `weigh-in:${T}`, ts: T, weightKg: 80.45 },
      { kind: "weigh-in", externalId: `weigh-in:${T + 86_400_000}`, ts: T + 86_400_000, weightKg: 81.74 },
      { kind: "body-fat", externalId: `body-fat:${T}`, ts: T, bodyFatPct: 21.5 },
      { kind: "measurement", externalId: `measurement:waist:${T}`, ts: T, site: "waist", valueCm: 84.5 },
      { kind: "measurement", externalId: `measurement:waist:${T + 86_400_000}`, ts: T + 86_400_000, site: "waist", valueCm: 84.5 },
      { kind: "refused", reason: '"heavy" is not a number' },
    ];
    // Whatever the pieces the file arrives in.
    for (const size of [1, 7, 64, 1 << 20]) expect(await rowsOf(file, size)).toEqual(expected);
  });

  it("goes on from any child's checkpoint with the same rows, and knows each child's line", async () => {
    const file = APPLE_HEAD + appleRecord("BodyMass", "kg", 70, T) + heartRate(T, 60) + appleRecord("BodyMass", "kg", 71, T + 1000) + APPLE_TAIL;
    const all = await children(file);
    expect(all.map((e) => e.bytes.toString().slice(0, 12))).toEqual(["<ExportDate ", "<Me HKCharac", "<Record type", "<Record type", "<Record type"]);
    const headLines = APPLE_HEAD.split("\n").length;
    expect(all.slice(2).map((e) => e.line)).toEqual([headLines, headLines + 1, headLines + 4]);
    const fromThird = await children(file, 5, all[2]!.next.offset, all[2]!.next.line);
    expect(fromThird.map((e) => [e.line, e.next])).toEqual(all.slice(3).map((e) => [e.line, e.next]));
  });

  it("reads workouts from attributes (older exports) and from WorkoutStatistics, in km, mi, kcal and kJ", async () => {
    const file = APPLE_HEAD +
      appleWorkout({ type: "Running", startMs: T, minutes: 30.5, offsetMin: 60, distance: { value: 5.02, unit: "km" }, energy: { value: 320.4, unit: "kcal" }, hr: { avg: 151.6, max: 175 }, route: "workout-routes/route_2024-03-01_7.12am.gpx" }) +
      appleWorkout({ type: "Cycling", startMs: T + 86_400_000, minutes: 60, style: "attributes", distance: { value: 12.5, unit: "mi" }, energy: { value: 2092, unit: "kJ" } }) +
      appleWorkout({ type: "Barre", startMs: T + 2 * 86_400_000, minutes: 45, distance: { value: 0, unit: "km" } }) +
      APPLE_TAIL;
    expect(await rowsOf(file, 100)).toEqual([
      { kind: "workout", workout: {
        externalId: `apple-workout:${T}:Running`, activityType: "run", appleType: "Running", startedAt: T, endedAt: T + 1_830_000, durationS: 1830,
        distanceM: 5020, energyKcal: 320, avgHr: 152, maxHr: 175, routeFile: "workout-routes/route_2024-03-01_7.12am.gpx",
      } },
      { kind: "workout", workout: {
        externalId: `apple-workout:${T + 86_400_000}:Cycling`, activityType: "ride", appleType: "Cycling", startedAt: T + 86_400_000,
        endedAt: T + 86_400_000 + 3_600_000, durationS: 3600, distanceM: 20116.8, energyKcal: 500, avgHr: null, maxHr: null, routeFile: null,
      } },
      { kind: "workout", workout: {
        externalId: `apple-workout:${T + 2 * 86_400_000}:Barre`, activityType: "other", appleType: "Barre", startedAt: T + 2 * 86_400_000,
        endedAt: T + 2 * 86_400_000 + 2_700_000, durationS: 2700, distanceM: null, energyKcal: null, avgHr: null, maxHr: null, routeFile: null,
      } },
    ]);
  });

  it("refuses entity declarations, another root, nesting past the cap, an endless element or prolog, and a cut-off document", async () => {
    const bomb = `<?xml version="1.0"?>\n<!DOCTYPE HealthData [\n <!ENTITY lol "lol">\n <!ENTITY lol2 "&lol;&lol;&lol;&lol;">\n]>\n<HealthData>&lol2;</HealthData>`;
    expect(await failure(bomb)).toMatch(/declares entities/);
    expect(await failure(`<?xml version="1.0"?><!DOCTYPE HealthData SYSTEM "file:///etc/passwd" [<!ENTITY x SYSTEM "file:///etc/passwd">]><HealthData/>`)).toMatch(/declares entities/);
    expect(await failure(`<?xml version="1.0"?><gpx><trk/></gpx>`)).toMatch(/root element is <gpx>/);
    expect(await failure(`<HealthData>${"<a>".repeat(20)}`)).toMatch(/nested more than 16 deep/);
    expect(await failure(Buffer.from(`<HealthData><Record value="${"1".repeat(MAX_ELEMENT_BYTES + 10)}"/></HealthData>`))).toMatch(/element longer than 1024 KiB/);
    expect(await failure(`<?xml version="1.0"?><!-- ${"x".repeat(300 * 1024)} --><HealthData/>`)).toMatch(/start is longer than 256 KiB/);
    expect(await failure(APPLE_HEAD + appleRecord("BodyMass", "kg", 70, T))).toMatch(/ends before its root element is closed/);
    // An entity no declaration names, inside a record that is read: that record is refused, not expanded.
    const [row] = await rowsOf(APPLE_HEAD + appleRecord("BodyMass", "kg", "&lol;", T) + APPLE_TAIL);
    expect(row).toMatchObject({ kind: "refused", reason: expect.stringMatching(/^not well-formed XML/) });
  });
});
