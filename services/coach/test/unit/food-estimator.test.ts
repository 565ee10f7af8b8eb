import { describe, expect, it } from "vitest";
import type { DatabaseFood, FoodEstimate } from "@fit/contracts";
import { estimateFoods, type MatchFoods } from "../../src/domain/food-estimator.ts";

// Foods as nutrition's match answers them: rows of the USDA SR Legacy extract (services/nutrition/usda/), copied
// with their portions. The estimator's part is the words and the arithmetic; which food a phrase means is
// nutrition's (its own unit test and test/food-estimate.test.ts through the gateway).
const food = (id: number, name: string, per100g: DatabaseFood["per100g"], portions: [number, string, number][], inHead = true): DatabaseFood => ({
  id: `usda:${id}`,
  name,
  per100g,
  portions: portions.map(([amount, unit, grams]) => ({ amount, unit, grams })),
  inHead,
});
const egg = food(173424, "Egg, whole, cooked, hard-boiled", { kcal: 155, proteinG: 12.58, fatG: 10.61, carbsG: 1.12, fiberG: 0 }, [[1, "cup, chopped", 136], [1, "tbsp", 8.5], [1, "large", 50]]);
const toast = food(174925, "Bread, white, commercially prepared, toasted", { kcal: 290, proteinG: 9, fatG: 4, carbsG: 54.5, fiberG: 2.9 }, [[1, "oz", 28.35], [1, "cup, crumbs", 45], [1, "slice, large", 27], [1, "slice", 22]]);
const chicken = food(171477, "Chicken, broilers or fryers, breast, meat only, cooked, roasted", { kcal: 165, proteinG: 31.02, fatG: 3.57, carbsG: 0, fiberG: 0 }, [[1, "cup, chopped or diced", 140], [1, "unit (yield from 1 lb ready-to-cook chicken)", 52], [0.5, "breast, bone and skin removed", 86]], false);
const rice = food(168878, "Rice, white, long-grain, regular, enriched, cooked", { kcal: 130, proteinG: 2.69, fatG: 0.28, carbsG: 28.17, fiberG: 0.4 }, [[1, "cup", 158]]);
const banana = food(173944, "Bananas, raw", { kcal: 89, proteinG: 1.09, fatG: 0.33, carbsG: 22.84, fiberG: 2.6 }, [[1, "cup, mashed", 225], [1, "small (6\" to 6-7/8\" long)", 101], [1, "medium (7\" to 7-7/8\" long)", 118], [1, "large (8\" to 8-7/8\" long)", 136], [1, "NLEA serving", 126]]);
const milk = food(171265, "Milk, whole, 3.25% milkfat, with added vitamin D", { kcal: 61, proteinG: 3.15, fatG: 3.25, carbsG: 4.8, fiberG: 0 }, [[1, "quart", 976], [1, "cup", 244], [1, "fl oz", 30.5], [1, "tbsp", 15]]);
const mac = food(169770, "Macaroni and cheese, box mix with cheese sauce, prepared", { kcal: 164, proteinG: 6.68, fatG: 4.99, carbsG: 23.1, fiberG: 1.2 }, [[1, "cup prepared", 189]]);
const cheese = food(173414, "Cheese, cheddar", { kcal: 403, proteinG: 24.9, fatG: 33.14, carbsG: 1.28, fiberG: 0 }, [[1, "oz", 28.35], [1, "slice (1 oz)", 28]]);
const blueberries = food(171711, "Blueberries, raw", { kcal: 57, proteinG: 0.74, fatG: 0.33, carbsG: 14.49, fiberG: 2.4 }, [[1, "cup", 148], [50, "berries", 68]]);
const salt = food(173468, "Salt, table", { kcal: 0, proteinG: 0, fatG: 0, carbsG: 0, fiberG: 0 }, [[1, "tsp", 6], [1, "dash", 0.4]]);

/** Nutrition's side, as a table of phrases: the phrases asked are recorded, a phrase not in the table has no food. */
const database = (foods: Record<string, DatabaseFood>) => {
  const asked: string[][] = [];
  const match: MatchFoods = async (phrases) => {
    asked.push(phrases);
    return phrases.map((phrase) => foods[phrase] ?? null);
  };
  return { asked, match };
};
const everyday = database({ eggs: egg, egg, toast, "chicken breast": chicken, chicken, rice, banana, bananas: banana, milk, "mac cheese": mac, "mac and cheese": mac, mac, cheese, salt, blueberries });
const estimate = (text: string) => estimateFoods(text, everyday.match);

const only = async (text: string): Promise<FoodEstimate> => {
  const { items, unrecognized } = await estimate(text);
  expect(unrecognized).toEqual([]);
  expect(items).toHaveLength(1);
  return items[0]!;
};

/** The numbers `grams` of `f` must carry, worked out from the food's row. */
const numbers = (f: DatabaseFood, grams: number, spread: { low: number; high: number }) => {
  const kcal = (g: number) => Math.round((g * f.per100g.kcal) / 100);
  const tenth = (per100g: number, g: number) => Math.round(((g * per100g) / 100) * 10) / 10;
  return {
    name: f.name,
    grams: Math.round(grams * 10) / 10,
    kcal: kcal(grams),
    kcalRange: { low: kcal(grams * spread.low), high: kcal(grams * spread.high) },
    proteinG: tenth(f.per100g.proteinG, grams),
    proteinRange: { low: tenth(f.per100g.proteinG, grams * spread.low), high: tenth(f.per100g.proteinG, grams * spread.high) },
    fatG: tenth(f.per100g.fatG!, grams),
    carbsG: tenth(f.per100g.carbsG!, grams),
    fiberG: tenth(f.per100g.fiberG!, grams),
    source: f.id,
  };
};
const exact = { low: 0.95, high: 1.05 };
const counted = { low: 0.85, high: 1.15 };
const vague = { low: 0.6, high: 1.5 };

describe("amounts on the food's household measures", () => {
  it("counts pieces in the food's medium or large measure, or the size said", async () => {
    expect(await only("2 eggs")).toEqual({ quantity: 2, unit: "large", ...numbers(egg, 100, counted) });
    expect(await only("a banana")).toEqual({ quantity: 1, unit: "medium", ...numbers(banana, 118, counted) });
    expect(await only("a small banana")).toMatchObject({ quantity: 1, unit: "small", grams: 101 });
    expect(await only("2 large bananas")).toMatchObject({ quantity: 2, unit: "large", grams: 272 });
    // SR Legacy weighs half a breast: one is twice that.
    expect(await only("1 chicken breast")).toMatchObject({ quantity: 1, unit: "breast", grams: 172 });
  });

  it("takes a weight as said, and a volume through the food's measure of that name or its density", async () => {
    expect(await only("150 g chicken breast")).toEqual({ quantity: 150, unit: "g", ...numbers(chicken, 150, exact) });
    expect(await only("a cup of rice")).toEqual({ quantity: 1, unit: "cup", ...numbers(rice, 158, counted) });
    expect(await only("1.5 cups of rice")).toMatchObject({ quantity: 1.5, grams: 237 });
    expect(await only("200 ml milk")).toMatchObject({ quantity: 200, unit: "ml", grams: 203.3 });
    expect(await only("3 oz cheese")).toMatchObject({ quantity: 85.05, unit: "g" });
  });

  it("reads a measure word through the food's measure of that name, else a fixed container", async () => {
    expect(await only("a slice of toast")).toEqual({ quantity: 1, unit: "slice", ...numbers(toast, 22, counted) });
    expect(await only("2 slices of cheese")).toMatchObject({ quantity: 2, unit: "slice", grams: 56 });
    expect(await only("a glass of milk")).toMatchObject({ quantity: 1, unit: "glass", grams: Math.round(250 * (244 / 240) * 10) / 10 });
    expect(await only("a bowl of rice")).toMatchObject({ unit: "bowl", kcalRange: { low: expect.any(Number), high: expect.any(Number) } });
  });

  it("gives one typical serving, as a guess, when no amount is said", async () => {
    expect(await only("banana")).toEqual({ quantity: 1, unit: "NLEA serving", ...numbers(banana, 126, vague) });
    expect(await only("rice")).toEqual({ quantity: 1, unit: "cup", ...numbers(rice, 158, vague) });
    expect(await only("chicken breast"), "the measure the food's words name").toMatchObject({ quantity: 1, unit: "breast", grams: 172 });
    // Neither "50 berries" nor a quart is one of a food: a cup is its serving then.
    expect(await only("blueberries")).toMatchObject({ quantity: 1, unit: "cup", grams: 148 });
    expect(await only("milk")).toMatchObject({ quantity: 1, unit: "cup", grams: 244 });
  });

  it("refuses a zero amount and one past what an item may hold, and reports them", async () => {
    for (const text of ["0 eggs", "1000 eggs", "10 kg cheese"]) expect(await estimate(text), text).toEqual({ items: [], unrecognized: [text] });
  });

  it("keeps every range around its point, kcal and protein alike", async () => {
    for (const item of (await estimate("3 eggs, a bowl of rice, 1 cup milk, a splash of milk, some cheese, 2 and a half bananas")).items) {
      for (const [range, point] of [[item.kcalRange, item.kcal], [item.proteinRange, item.proteinG]] as const) {
        expect([range.low <= point, point <= range.high]).toEqual([true, true]);
      }
    }
  });
});

describe("splitting text into foods", () => {
  it("asks the database once, for the words naming each food and for parts joined by \"and\"", async () => {
    const before = everyday.asked.length;
    const { items, unrecognized } = await estimate("two eggs and a slice of toast");
    expect(unrecognized).toEqual([]);
    expect(items.map((i) => i.source)).toEqual([egg.id, toast.id]);
    expect(everyday.asked.slice(before)).toEqual([["eggs", "toast", "eggs and toast"]]);
  });

  it("keeps a phrase joined by \"and\" whole when the database names one food by it, and splits it otherwise", async () => {
    expect(await only("mac and cheese")).toMatchObject({ source: mac.id, unit: "cup prepared" });
    expect(await only("a cup of Mac & Cheese")).toMatchObject({ source: mac.id, grams: 189 });
    // No food is salt and pepper; pepper is not in this database, so it is reported.
    expect(await estimate("salt and pepper")).toMatchObject({ items: [{ source: salt.id }], unrecognized: ["pepper"] });
    // A food that names only one side (not in its head) does not join them.
    const joinedLoosely = database({ eggs: egg, toast, "eggs and toast": { ...toast, inHead: false } });
    expect((await estimateFoods("eggs and toast", joinedLoosely.match)).items.map((i) => i.source)).toEqual([egg.id, toast.id]);
  });

  it("asks about the food in a sentence, not the sentence's own words", async () => {
    expect(await only("Is a banana a good snack?")).toMatchObject({ source: banana.id, quantity: 1, unit: "medium" });
    expect((await estimate("I had two eggs for breakfast")).items).toMatchObject([{ source: egg.id, quantity: 2 }]);
  });

  it("reports the parts the database has no food for, trimmed and in order", async () => {
    expect(await estimate("two eggs,  a moon rock , toast")).toMatchObject({ unrecognized: ["a moon rock"] });
    expect(await estimate("a moon rock and stardust")).toEqual({ items: [], unrecognized: ["a moon rock", "stardust"] });
  });

  it("does not ask about text naming nothing", async () => {
    const before = everyday.asked.length;
    expect(await estimate(" ,, ;\n")).toEqual({ items: [], unrecognized: [] });
    expect(await estimate("2 cups")).toEqual({ items: [], unrecognized: ["2 cups"] });
    expect(everyday.asked.length).toBe(before);
  });

  it("asks about at most 200 characters of a food's words", async () => {
    const long = "cheese ".repeat(100).trim();
    const before = everyday.asked.length;
    expect(await estimate(long)).toEqual({ items: [], unrecognized: [long] });
    expect(everyday.asked.slice(before).flat().every((phrase) => phrase.length <= 200)).toBe(true);
  });

  it("stops at the reply's 20 items and reports the parts past them", async () => {
    const { items, unrecognized } = await estimate(Array.from({ length: 24 }, (_, i) => `${i + 1} eggs`).join(", "));
    expect(items).toHaveLength(20);
    expect(unrecognized).toEqual(["21 eggs", "22 eggs", "23 eggs", "24 eggs"]);
  });

  it("fails as the database's answer did, with no estimate guessed", async () => {
    const failure = new Error("nutrition did not answer");
    await expect(estimateFoods("two eggs", () => Promise.reject(failure))).rejects.toBe(failure);
  });
});
