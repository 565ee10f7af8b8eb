import { describe, expect, it } from "vitest";
import { checkLabel, labelEstimate, readLabel } from "../../src/domain/photo-label.ts";

const lines = (text: string, confidence = 92) => text.split("\n").map((line) => ({ text: line, confidence }));

describe("a nutrition label's text", () => {
  it("reads a US label per serving, a gram sign read as 9 included, for the servings eaten", () => {
    const label = readLabel(lines("Nutrition Facts\nServing size 2/3 cup (309)\nCalories l20\nTotal Fat 3g\nProtein 59"));
    expect(label).toMatchObject({ basis: "serving", servingG: 30, values: { kcal: 120, proteinG: 5, fatG: 3 }, missing: [] });
    expect(labelEstimate(label, { servings: 2 }, "ocr")).toMatchObject({ kcal: 240, proteinG: 10, grams: 60, kcalRange: { low: 192, high: 288 }, source: "ocr" });
    expect(labelEstimate(label, { grams: 45 }, "ocr")).toMatchObject({ kcal: 180, proteinG: 7.5 });
  });

  it("reads an EU label per 100 g with kJ checking kcal, and needs the grams eaten", () => {
    const label = readLabel(lines("Typical values per 100 g\nEnergy 1O46 kJ / 250 kcal\nFat 9,0 g\nProtein 8,1 g"));
    expect(label).toMatchObject({ basis: "100g", values: { kcal: 250, proteinG: 8.1 }, lowConfidence: [] });
    expect(labelEstimate(label, { grams: 40 }, "ocr")).toMatchObject({ kcal: 100, proteinG: 3.2 });
    expect(labelEstimate(label, {}, "ocr")).toEqual({ missing: [expect.stringMatching(/grams eaten/)] });
  });

  it("leaves out numbers that contradict each other, so nothing is logged from them", () => {
    // kJ and kcal disagree (2046 kJ is 489 kcal).
    expect(readLabel(lines("per 100 g\nEnergy 2046 kJ / 250 kcal\nProtein 8 g")).values.kcal).toBeNull();
    // 79 g of protein alone passes 317 kcal once the fat is counted: a 7 g read as 79.
    const wrong = readLabel(lines("Serving size (72g)\nCalories 317\nTotal Fat 8g\nProtein 79g"));
    expect(wrong.values).toMatchObject({ kcal: null, proteinG: null });
    expect(labelEstimate(wrong, {}, "ocr")).toHaveProperty("missing");
  });
});

describe("a label the model read", () => {
  it("passes the same checks: macros past the energy leave energy and protein out, and the amount cannot be computed", () => {
    const values = { kcal: 120, proteinG: 5, fatG: 8, carbsG: null };
    expect(checkLabel({ basis: "serving", values, servingG: 30 }, ["fatG"])).toEqual({ basis: "serving", values, servingG: 30, lowConfidence: ["fatG"], missing: [] });
    const wrong = checkLabel({ basis: "100g", values: { ...values, fatG: 40 }, servingG: null }, []);
    expect(wrong).toMatchObject({ values: { kcal: null, proteinG: null }, missing: ["energy (kcal or kJ)", "protein"] });
    expect(labelEstimate(wrong, { grams: 40 }, "model:m")).toEqual({ missing: ["energy (kcal or kJ)", "protein"] });
  });
});
