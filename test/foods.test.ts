import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { client } from "./support/http.ts";
import { startSystem, type System } from "./support/system.ts";

// The food database through the gateway on PostgreSQL: search by the words people type, a food with its
// portions, and items logged from a food and a portion (docs/decisions/0063-food-database.md).
let system: System;
const newUser = async () => client(system.url, (await system.account()).key);
let api: Awaited<ReturnType<typeof newUser>>;

const BANANA = "usda:173944"; // Bananas, raw: 89 kcal, 1.09 g protein, 0.33 fat, 22.84 carbs, 2.6 fiber per 100 g
const WAFFLE = "usda:167516"; // Waffles, buttermilk, frozen: portions "waffle, square" 39 g and "waffle, round" 38 g, no serving
const BAOBAB = "usda:167806"; // Baobab powder: in SR Legacy, not in SR28, so no nutrient values

const names = async (q: string, limit = 5) => {
  const response = await api.get(`/api/foods?q=${encodeURIComponent(q)}&limit=${limit}`);
  expect(response.status).toBe(200);
  return (response.body as { name: string }[]).map((food) => food.name);
};

beforeAll(async () => {
  system = await startSystem({ databaseUrl: inject("databaseUrl"), natsUrl: inject("natsUrl") });
  api = await newUser();
});
afterAll(() => system?.stop());

describe("food search", () => {
  it("puts the plain food first: banana is Bananas, raw, before banana chips, peppers and baby food", async () => {
    const found = await names("banana", 50);
    expect(found[0]).toBe("Bananas, raw");
    for (const other of ["Snacks, banana chips", "Pepper, banana, raw", "Babyfood, banana no tapioca, strained"]) {
      expect(found.indexOf(other), other).toBeGreaterThan(0);
    }
  });

  it.each([
    ["banan", /^Bananas, raw$/],
    ["chicken breast", /^Chicken, broilers? or fryers, breast/],
    ["chiken brest", /^Chicken, broilers? or fryers, breast/],
    ["greek yogurt", /^Yogurt, Greek/],
    ["yoghurt greek", /^Yogurt, Greek/],
    ["eggs", /^Egg, /],
    ["brocoli", /^Broccoli, raw$/],
  ])("finds %s as a person means it", async (q, first) => {
    expect((await names(q))[0]).toMatch(first);
  });

  it("answers every match with its values per 100 g, and never offers a food without them", async () => {
    const response = await api.get("/api/foods?q=banana&limit=1");
    expect(response.body).toEqual([
      {
        id: BANANA, name: "Bananas, raw", category: "Fruits and Fruit Juices",
        per100g: { kcal: 89, proteinG: 1.09, fatG: 0.33, carbsG: 22.84, fiberG: 2.6, sugarsG: 12.23, sodiumMg: 1 },
      },
    ]);
    expect(await names("baobab powder")).not.toContain("Baobab powder");
    const chobani = (await api.get("/api/foods?q=chobani greek yogurt&limit=50")).body as { per100g: { kcal: number | null } }[];
    expect(chobani.every((food) => food.per100g.kcal !== null)).toBe(true);
  });

  it("answers [] when no word matches, and refuses a missing query or a bad limit", async () => {
    expect((await api.get("/api/foods?q=xqzv")).body).toEqual([]);
    expect((await api.get("/api/foods?q=%20%21")).body).toEqual([]);
    expect((await api.get("/api/foods")).body.error).toMatch(/^q is required$/);
    expect((await api.get("/api/foods?q=egg&limit=0")).status).toBe(400);
    expect(await names("egg", 3)).toHaveLength(3);
  });
});

describe("a food", () => {
  it("comes with its household portions and its caveat", async () => {
    const response = await api.get(`/api/foods/${BANANA}`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: BANANA, name: "Bananas, raw", caveat: null });
    expect(response.body.portions.slice(0, 2)).toEqual([
      { id: 1, amount: 1, unit: "cup, mashed", grams: 225 },
      { id: 2, amount: 1, unit: "cup, sliced", grams: 150 },
    ]);
    expect((await api.get(`/api/foods/${BAOBAB}`)).body).toMatchObject({
      per100g: { kcal: null, proteinG: null }, caveat: "no_nutrient_values:food_not_in_SR28",
    });
  });

  it("is 404 when unknown and 400 when not a food id", async () => {
    expect((await api.get("/api/foods/usda:1")).status).toBe(404);
    const bad = await api.get("/api/foods/banana");
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/food id like usda:173944/);
  });
});

describe("barcodes, when the operator has not enabled their lookup (no FOOD_BARCODE_URL)", () => {
  it("answers 503 saying so, for a barcode and for a product's id", async () => {
    const response = await api.get("/api/foods/barcode/3017620422003");
    expect(response.status).toBe(503);
    expect(response.body).toEqual({ error: "barcode lookup is not enabled on this server", detail: expect.stringMatching(/FOOD_BARCODE_URL/) });
    expect((await api.get("/api/foods/off:3017620422003")).status).toBe(503);
  });
});

describe("logging from the database", () => {
  const date = "2026-11-20";
  const log = (body: Record<string, unknown>, as = api) => as.post("/api/nutrition/items", { date, ...body });

  it.each([
    ["grams", { grams: 150 }, { grams: 150, quantity: 150, unit: "g", kcal: 133.5, proteinG: 1.64, fatG: 0.5, carbsG: 34.26, fiberG: 3.9 }],
    ["a household measure", { measure: 2, count: 2 }, { grams: 300, quantity: 2, unit: "cup, sliced", kcal: 267, proteinG: 3.27, fiberG: 7.8 }],
    ["servings", { servings: 1 }, { grams: 126, quantity: 1, unit: "NLEA serving", kcal: 112.1, proteinG: 1.37, fiberG: 3.28 }],
  ])("computes and stores the numbers for %s, with the food as their source", async (_kind, portion, expected) => {
    const user = await newUser();
    const response = await log({ foodId: BANANA, portion, meal: "breakfast" }, user);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ ...expected, name: "Bananas, raw", source: BANANA, meal: "breakfast", estimate: null });
    expect((await user.get(`/api/nutrition/items?date=${date}`)).body).toEqual([response.body]);
    const [total] = (await user.get("/api/nutrition")).body;
    expect(total).toMatchObject({ date, kcal: expected.kcal });
    expect(total.proteinG).toBeCloseTo(expected.proteinG, 1);
  });

  it("keeps typed items as they were, fibre now among their numbers, and drops the source once numbers are corrected", async () => {
    const user = await newUser();
    const typed = await log({ name: "toast", kcal: 80, proteinG: 3, fiberG: 1.2 }, user);
    expect(typed.body).toMatchObject({ name: "toast", kcal: 80, fiberG: 1.2, source: null, grams: null });
    const fromFood = (await log({ foodId: BANANA, portion: { grams: 100 }, name: "banana" }, user)).body;
    expect(fromFood).toMatchObject({ name: "banana", kcal: 89, source: BANANA });
    const corrected = await user.patch(`/api/nutrition/items/${fromFood.id}`, { kcal: 95 });
    expect(corrected.body).toMatchObject({ kcal: 95, source: null, grams: 100 });
  });

  it.each([
    ["an unknown food", { foodId: "usda:999999999", portion: { grams: 100 } }, 404, /no food usda:999999999/],
    ["a measure that is not the food's", { foodId: WAFFLE, portion: { measure: 3 } }, 400, /portion.measure 3 is not one of usda:167516's portions \(1, 2/],
    ["servings of a food without a serving", { foodId: WAFFLE, portion: { servings: 2 } }, 400, /has no serving portion/],
    ["0 grams", { foodId: BANANA, portion: { grams: 0 } }, 400, /portion.grams must be greater than 0/],
    ["negative grams", { foodId: BANANA, portion: { grams: -5 } }, 400, /portion.grams must be greater than 0/],
    ["two kinds of portion", { foodId: BANANA, portion: { grams: 100, servings: 1 } }, 400, /exactly one of grams, measure or servings/],
    ["no portion", { foodId: BANANA }, 400, /^portion is required with foodId$/],
    ["typed numbers beside a food", { foodId: BANANA, portion: { grams: 100 }, kcal: 50 }, 400, /kcal is computed from foodId/],
    ["a portion without a food", { name: "x", kcal: 1, proteinG: 0, portion: { grams: 1 } }, 400, /portion goes with foodId only/],
    ["a typed item without kcal", { name: "x", proteinG: 1 }, 400, /^kcal is required$/],
    ["a bad food id", { foodId: "173944", portion: { grams: 1 } }, 400, /foodId must be a food id/],
    ["a food without nutrient values", { foodId: BAOBAB, portion: { grams: 10 } }, 422, /no nutrient values/],
    ["more than an item may hold", { foodId: "usda:171413", portion: { grams: 5000 } }, 400, /more than one item may hold/],
  ])("refuses %s in the envelope and stores nothing", async (_case, body, status, message) => {
    const user = await newUser();
    const response = await log(body, user);
    expect(response.status).toBe(status);
    expect(response.body.error).toMatch(message);
    expect((await user.get(`/api/nutrition/items?date=${date}`)).body).toEqual([]);
    expect((await user.get("/api/nutrition")).body).toEqual([]);
  });
});

describe("the embedded start (PGlite, the launcher's template)", () => {
  let embedded: System;
  beforeAll(async () => {
    embedded = await startSystem({ embedded: true });
  });
  afterAll(() => embedded?.stop());

  it("searches and logs from the same database", async () => {
    const own = client(embedded.url, (await embedded.account()).key);
    const found = await own.get("/api/foods?q=chiken%20brest&limit=3");
    expect(found.body[0].name).toMatch(/^Chicken, broilers? or fryers, breast/);
    const logged = await own.post("/api/nutrition/items", { date: "2026-11-20", foodId: BANANA, portion: { measure: 2 } });
    expect(logged.body).toMatchObject({ name: "Bananas, raw", grams: 150, kcal: 133.5, source: BANANA });
  });
});
