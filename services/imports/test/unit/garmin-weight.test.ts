import { describe, expect, it } from "vitest";
import { UnreadableFile } from "../../src/domain/csv.ts";
import { garminWeighIns, isGarminBiometrics } from "../../src/domain/garmin-weight.ts";

// Entries of a userBioMetrics.json as Garmin Connect's account export writes them: weigh-ins under `weight`
// (grams, body fat in percent, the instant in ms or as a zoneless GMT time), other entries without one.
const entries = [
  { metaData: { calendarDate: "2021-03-01T00:00:00.0" }, weight: { weight: 80_456.0, bodyFat: 21.34, timestampGMT: Date.UTC(2021, 2, 1, 6, 15), sourceType: "INDEX_SCALE" } },
  { metaData: { calendarDate: "2021-03-02T00:00:00.0" }, height: 180.0, vo2Max: 48.0 },
  { weight: { weight: 80_100.0, bodyFat: 0.0, timestampGMT: "2021-03-03T06:20:00.0", sourceType: "MANUAL" } },
  { weight: { weight: 79_900.0, timestampGMT: null } },
  { weight: { weight: 900_000.0, timestampGMT: Date.UTC(2021, 2, 5) } },
];

describe("Garmin Connect's weight entries", () => {
  it("reads each weigh-in in kilograms to two decimals, with its body fat and GMT instant, and passes over entries without one", () => {
    expect(garminWeighIns(Buffer.from(JSON.stringify(entries)))).toEqual([
      { entry: 1, weighIn: { externalId: `weigh-in:${Date.UTC(2021, 2, 1, 6, 15)}`, ts: Date.UTC(2021, 2, 1, 6, 15), weightKg: 80.46, bodyFatPct: 21.3 } },
      { entry: 3, weighIn: { externalId: `weigh-in:${Date.UTC(2021, 2, 3, 6, 20)}`, ts: Date.UTC(2021, 2, 3, 6, 20), weightKg: 80.1, bodyFatPct: null } },
      { entry: 4, refused: "no time" },
      { entry: 5, refused: expect.stringMatching(/^weightKg /) },
    ]);
  });

  it("refuses a file that is not a list of entries", () => {
    expect(() => garminWeighIns(Buffer.from("{"))).toThrow(UnreadableFile);
    expect(() => garminWeighIns(Buffer.from('{"weight":{}}'))).toThrow("not a list of entries");
    expect(garminWeighIns(Buffer.from("[]"))).toEqual([]);
  });

  it("names the export's biometrics files", () => {
    expect(isGarminBiometrics("DI_CONNECT/DI-Connect-Wellness/112233_userBioMetrics.json")).toBe(true);
    expect(isGarminBiometrics("DI_CONNECT/DI-Connect-Wellness/112233_sleepData.json")).toBe(false);
  });
});
