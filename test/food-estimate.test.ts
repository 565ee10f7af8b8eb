// POST /api/nutrition/estimate and /describe: food from words, each item the food database's food (asked of
// nutrition over the bus by the coach) with its macros and its `usda:<fdc_id>`.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { FoodDescribed, FoodEstimated, type FoodEstimate } from "@fit/contracts";
import { client } from "./support/http.ts";
import { startSystem, type System } from "./support/system.ts";

let system: System;

beforeAll(async () => {
  system = await startSystem({ databaseUrl: inject("databaseUrl"), natsUrl: inject("natsUrl") });
});
afterAll(() => system?.stop());

const DAY = new Date().toISOString().slice(0, 10);

const estimated = async (text: string) => {
  const api = client(system.url, (await system.account()).key);
  const response = await api.post("/api/nutrition/estimate", { text });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return FoodEstimated.parse(response.body);
};

/** The database's food as GET /api/foods/{id} gives it, to check an estimate's numbers against. */
const foodOf = async (item: FoodEstimate) => {
  const api = client(system.url, (await system.account()).key);
  const response = await api.get(`/api/foods/${item.source}`);
  expect(response.status).toBe(200);
  return response.body as { name: string; per100g: { kcal: number; proteinG: number; fatG: number; carbsG: number; fiberG: number } };
};

describe("estimating food from words", () => {
  it("answers each food from the database with its amount, macros, range and source, and logs nothing", async () => {
    const api = client(system.url, (await system.account()).key);
    const response = await api.post("/api/nutrition/estimate", { text: "two eggs and a slice of toast" });
    expect(response.status).toBe(200);
    const { items, unrecognized } = FoodEstimated.parse(response.body);
    expect(unrecognized).toEqual([]);
    expect(items.map((i) => i.name)).toEqual([expect.stringMatching(/^Egg, whole, cooked/), expect.stringMatching(/^Bread, .*toasted/)]);
    for (const item of items) {
      expect(item.source).toMatch(/^usda:\d+$/);
      const food = await foodOf(item);
      expect(item.name).toBe(food.name);
      const grams = item.grams!;
      expect(item.kcal).toBe(Math.round((grams * food.per100g.kcal) / 100));
      expect(item.proteinG).toBeCloseTo((grams * food.per100g.proteinG) / 100, 0);
      expect([item.fatG, item.carbsG, item.fiberG].map((g) => g ?? -1)).toEqual([food.per100g.fatG, food.per100g.carbsG, food.per100g.fiberG].map((per100g) => Math.round(grams * per100g) / 100).map((g) => Math.round(g * 10) / 10));
      expect(item.kcalRange.low).toBeLessThanOrEqual(item.kcal);
      expect(item.kcalRange.high).toBeGreaterThanOrEqual(item.kcal);
    }
    // Two of the large egg measure (50 g each), one slice.
    expect(items[0]).toMatchObject({ quantity: 2, unit: "large", grams: 100 });
    expect(items[1]).toMatchObject({ quantity: 1, unit: "slice" });
    expect((await api.get(`/api/nutrition/items?date=${DAY}`)).body).toEqual([]);
  });

  it("keeps mac and cheese one food, weighs chicken as said and cooked, and a carrot said raw raw", async () => {
    const mac = await estimated("a cup of mac and cheese");
    expect(mac.unrecognized).toEqual([]);
    expect(mac.items).toEqual([expect.objectContaining({ name: expect.stringMatching(/^Macaroni and cheese/i), quantity: 1, unit: "cup" })]);

    const chicken = await estimated("150 g chicken breast");
    expect(chicken.items).toEqual([expect.objectContaining({ name: expect.stringMatching(/^Chicken, .*breast.*cooked/), quantity: 150, unit: "g", grams: 150 })]);
    expect(chicken.items[0]!.proteinG).toBeGreaterThan(40);

    // Said alone, the everyday kind.
    const names = await Promise.all(["30 g cheese", "150 g beef", "100 g tofu", "a cup of lentils"].map(async (text) => (await estimated(text)).items[0]?.name));
    expect(names).toEqual([
      expect.stringMatching(/^Cheese, cheddar/), expect.stringMatching(/^Beef, ground, .*cooked/),
      expect.stringMatching(/^Tofu, .*firm/), expect.stringMatching(/^Lentils, mature seeds, cooked, boiled/),
    ]);

    const carrot = await estimated("a raw carrot");
    expect(carrot.items).toEqual([expect.objectContaining({ name: "Carrots, raw", quantity: 1, unit: "medium", grams: 61 })]);
  });

  it("logs what it described with the estimate's macros and source", async () => {
    const api = client(system.url, (await system.account()).key);
    const response = await api.post("/api/nutrition/describe", { text: "a banana", date: DAY });
    expect(response.status).toBe(200);
    const [item] = FoodDescribed.parse(response.body).items;
    expect(item).toMatchObject({ name: "Bananas, raw", estimate: { source: "usda:173944" } });
    expect([item!.fatG, item!.carbsG, item!.fiberG].every((g) => typeof g === "number" && g >= 0)).toBe(true);
    expect(item!.carbsG).toBeGreaterThan(20);
  });

  it("refuses text without a food, as describing does", async () => {
    const api = client(system.url, (await system.account()).key);
    const response = await api.post("/api/nutrition/estimate", { text: "the quick brown fox" });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe("no food recognised in text");
  });
});

describe("the embedded mode", () => {
  it("estimates from the database too, over its in-process bus", async () => {
    const embedded = await startSystem({ embedded: true });
    try {
      const api = client(embedded.url, (await embedded.account()).key);
      const answered = await api.post("/api/nutrition/estimate", { text: "two eggs" });
      expect(answered.status, JSON.stringify(answered.body)).toBe(200);
      expect(FoodEstimated.parse(answered.body).items[0]!.source).toMatch(/^usda:/);
    } finally {
      await embedded.stop();
    }
  });
});
