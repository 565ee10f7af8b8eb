import { describe, expect, it } from "vitest";
import {
  cmOf, formatLength, formatWeight, inUnitsOf, kgOf, lengthFieldText, parseLengthCm, parseWeightKg, typedLength, typedWeight,
  weightFieldText,
} from "../../src/index.ts";

/** Every tenth from `from` to `to`, as the text a person types ("80.0", "80.1", …), counted in integers. */
const tenthsBetween = (from: number, to: number): string[] =>
  Array.from({ length: (to - from) * 10 + 1 }, (_, i) => ((from * 10 + i) / 10).toFixed(1));

describe("a weight typed, sent in kilograms and shown again", () => {
  it("comes back as the same tenth of a pound, for every tenth from 80 to 400 lb", () => {
    const changed = tenthsBetween(80, 400).filter((lb) => formatWeight(parseWeightKg(lb, "imperial")!, "imperial") !== `${lb} lb`);
    expect(changed).toEqual([]);
  });

  it("comes back as the same stones and tenth of a pound, for every one from 6 st to 28 st 13.9 lb", () => {
    const typed = Array.from({ length: 23 }, (_, i) => i + 6).flatMap((st) =>
      Array.from({ length: 140 }, (_, tenth) => `${st} st ${(tenth / 10).toFixed(1)} lb`));
    expect(typed).toHaveLength(23 * 140);
    const changed = typed.filter((text) => formatWeight(parseWeightKg(text, "imperial_stones")!, "imperial_stones") !== text);
    expect(changed).toEqual([]);
  });

  it("sends 180.0 lb as 81.65 kg, two decimals, and shows 81.65 kg to a metric reader", () => {
    expect(parseWeightKg("180.0", "imperial")).toBe(81.65);
    expect(formatWeight(81.65, "metric")).toBe("81.65 kg");
    expect(formatWeight(81.65, "imperial_stones")).toBe("12 st 12.0 lb");
  });

  it("keeps a metric weight as typed, up to two places", () => {
    expect(tenthsBetween(30, 200).filter((kg) => formatWeight(parseWeightKg(kg, "metric")!, "metric") !== `${Number(kg)} kg`)).toEqual([]);
    expect(parseWeightKg("81.43", "metric")).toBe(81.43);
  });

  it("carries 13.96 lb over a stone to the next stone", () => {
    expect(formatWeight((14 * 12 + 13.96) * 0.45359237, "imperial_stones")).toBe("13 st 0.0 lb");
  });
});

describe("a length typed, sent in centimetres and shown again", () => {
  it("comes back as the same tenth of an inch, for every tenth from 10 to 80 in", () => {
    const changed = tenthsBetween(10, 80).filter((inches) => formatLength(parseLengthCm(inches, "imperial")!, "imperial") !== `${inches} in`);
    expect(changed).toEqual([]);
  });

  it("sends 32 in as 81.28 cm", () => {
    expect(parseLengthCm("32", "imperial")).toBe(81.28);
    expect(formatLength(81.28, "metric")).toBe("81.28 cm");
  });
});

describe("reading what people type", () => {
  it.each([
    ["179.4lb", { value: 179.4, unit: "lb" }],
    ["179.4 lbs", { value: 179.4, unit: "lb" }],
    ["179,4 Pounds", { value: 179.4, unit: "lb" }],
    ["81.4kg", { value: 81.4, unit: "kg" }],
    ["81,5", { value: 81.5, unit: undefined }],
    [" 81.5 ", { value: 81.5, unit: undefined }],
    ["12st 8lb", { value: 176, unit: "lb" }],
    ["12 st 8.5", { value: 176.5, unit: "lb" }],
    ["12 stone", { value: 168, unit: "lb" }],
    ["12.5 st", { value: 175, unit: "lb" }],
  ])("reads the weight %j", (text, typed) => expect(typedWeight(text)).toEqual(typed));

  it.each(["", "kg", "81.4 kgg", "-80", "80 lb 3", "12 st 8 kg", "eighty", "81.4.2", "1e3"])("reads %j as no weight", (text) =>
    expect(typedWeight(text)).toBeUndefined(),
  );

  it.each([
    ["32in", { value: 32, unit: "in" }],
    ["32 inches", { value: 32, unit: "in" }],
    ['32"', { value: 32, unit: "in" }],
    ["81.5cm", { value: 81.5, unit: "cm" }],
    ["81,5", { value: 81.5, unit: undefined }],
    ["5ft 11in", { value: 71, unit: "in" }],
    [`5' 11"`, { value: 71, unit: "in" }],
    ["6 ft", { value: 72, unit: "in" }],
  ])("reads the length %j", (text, typed) => expect(typedLength(text)).toEqual(typed));

  it.each(["", "in", "81 kg", "5 ft 11 cm", "-3"])("reads %j as no length", (text) => expect(typedLength(text)).toBeUndefined());

  it("takes a bare number in the profile's unit, and a named unit whatever the profile", () => {
    expect(kgOf({ value: 179.4, unit: undefined }, "imperial")).toBe(81.37);
    expect(kgOf({ value: 179.4, unit: undefined }, "metric")).toBe(179.4);
    expect(kgOf({ value: 12, unit: undefined }, "imperial_stones")).toBe(76.2);
    expect(kgOf({ value: 81.4, unit: "kg" }, "imperial")).toBe(81.4);
    expect(kgOf({ value: 179.4, unit: "lb" }, "metric")).toBe(81.37);
    expect(cmOf({ value: 32, unit: undefined }, "imperial_stones")).toBe(81.28);
    expect(cmOf({ value: 81.5, unit: "cm" }, "imperial")).toBe(81.5);
    expect(cmOf({ value: 71, unit: "in" }, "metric")).toBe(180.34);
  });
});

describe("a form field's starting text", () => {
  it("reads back as the stored value's own tenth", () => {
    for (const system of ["metric", "imperial", "imperial_stones"] as const) {
      expect(formatWeight(parseWeightKg(weightFieldText(81.65, system), system)!, system)).toBe(formatWeight(81.65, system));
      expect(formatLength(parseLengthCm(lengthFieldText(81.28, system), system)!, system)).toBe(formatLength(81.28, system));
    }
    expect(weightFieldText(81.65, "imperial")).toBe("180.0");
    expect(weightFieldText(81.65, "imperial_stones")).toBe("12 st 12.0 lb");
  });
});

describe("the API's messages in the person's units", () => {
  it("restates kilograms and centimetres, each bound with its unit", () => {
    expect(inUnitsOf("weightKg must be between 9 and 320 kg", "imperial")).toBe("weightKg must be between 19.8 lb and 705.5 lb");
    expect(inUnitsOf("valueCm must be between 5 and 300 cm", "imperial")).toBe("valueCm must be between 2.0 in and 118.1 in");
    expect(inUnitsOf("weightKg must be between 9 and 320 kg", "metric")).toBe("weightKg must be between 9 and 320 kg");
  });
});
