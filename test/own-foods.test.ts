import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { client } from "./support/http.ts";
import { startSystem, type System } from "./support/system.ts";

// A person's own foods and recipes through the gateway on PostgreSQL: made, searched, read and logged like the
// database's foods, each account's alone (docs/decisions/0065-own-foods-and-recipes.md).
let system: System;
type Api = ReturnType<typeof client>;
const newUser = async () => client(system.url, (await system.account()).key);

const BANANA = "usda:173944"; // Bananas, raw: 89 kcal, 1.09 g protein, 0.33 fat, 22.84 carbs, 2.6 fiber, 12.23 sugars, 1 mg sodium per 100 g
const DAY = "2026-11-20";
/** Per serving of 40 g: 450 kcal, 10 g protein, 17.5 fat, 65 carbs, 7.5 fiber, 125 mg sodium per 100 g. */
const GRANOLA_BAR = {
  name: "Oat granola bar", brand: "Homemade", per: "serving", servingG: 40, kcal: 180, proteinG: 4, fatG: 7, carbsG: 26, fiberG: 3,
  sodiumMg: 50, measures: [{ name: "half bar", grams: 20 }],
};

const made = async (response: Promise<{ status: number; body: { id?: string } }>) => {
  const { status, body } = await response;
  expect(status, JSON.stringify(body)).toBe(200);
  return body as { id: string } & Record<string, unknown>;
};
const logFood = (api: Api, foodId: string, portion: Record<string, number>) => api.post("/api/nutrition/items", { date: DAY, foodId, portion });
const smoothie = (granolaId: string) => ({
  name: "Banana oat smoothie", servings: 2,
  ingredients: [{ foodId: BANANA, portion: { grams: 120 } }, { foodId: granolaId, portion: { servings: 1 } }],
});

beforeAll(async () => {
  system = await startSystem({ databaseUrl: inject("databaseUrl"), natsUrl: inject("natsUrl") });
});
afterAll(() => system?.stop());

describe("a food of one's own", () => {
  it("is kept as entered with its figures per 100 g, read as a food with its serving and measures, and found first", async () => {
    const api = await newUser();
    const food = await made(api.post("/api/custom-foods", GRANOLA_BAR));
    expect(food).toMatchObject({ ...GRANOLA_BAR, id: expect.stringMatching(/^custom:[0-9a-f-]{36}$/), sugarsG: null });
    expect(food.per100g).toEqual({ kcal: 450, proteinG: 10, fatG: 17.5, carbsG: 65, fiberG: 7.5, sugarsG: null, sodiumMg: 125 });
    expect((await api.get(`/api/custom-foods/${food.id}`)).body).toEqual(food);
    expect((await api.get("/api/custom-foods")).body).toEqual([food]);

    const asFood = await api.get(`/api/foods/${food.id}`);
    expect(asFood.body).toEqual({
      id: food.id, name: "Oat granola bar (Homemade)", category: "My foods", per100g: food.per100g, caveat: null,
      portions: [{ id: 1, amount: 1, unit: "serving", grams: 40 }, { id: 2, amount: 1, unit: "half bar", grams: 20 }],
    });
    const found = (await api.get("/api/foods?q=granola&limit=5")).body as { id: string; category: string }[];
    expect(found[0]).toEqual({ id: food.id, name: "Oat granola bar (Homemade)", category: "My foods", per100g: food.per100g });
    expect(found.slice(1).every((match) => match.id.startsWith("usda:"))).toBe(true);
    expect(found).toHaveLength(5);
    expect((await api.get("/api/foods?q=granola homemade&limit=1")).body[0].id).toBe(food.id);
    expect((await api.get("/api/foods?q=granloa&limit=1")).body[0].id).toBe(food.id);
  });

  it("is logged by servings, a measure or grams with itself as the source", async () => {
    const api = await newUser();
    const food = await made(api.post("/api/custom-foods", GRANOLA_BAR));
    const two = await logFood(api, food.id, { servings: 2 });
    expect(two.status, JSON.stringify(two.body)).toBe(200);
    expect(two.body).toMatchObject({ name: "Oat granola bar (Homemade)", kcal: 360, proteinG: 8, fatG: 14, carbsG: 52, fiberG: 6, grams: 80, source: food.id });
    expect((await logFood(api, food.id, { measure: 2 })).body).toMatchObject({ kcal: 90, grams: 20, unit: "half bar" });
    expect((await logFood(api, food.id, { grams: 10 })).body).toMatchObject({ kcal: 45, proteinG: 1 });
    expect((await logFood(api, food.id, { measure: 3 })).status).toBe(400);
  });

  it("refuses what cannot be a food, naming the field, and stores nothing", async () => {
    const api = await newUser();
    const refused = [
      [{ ...GRANOLA_BAR, servingG: undefined }, /servingG is required/],
      [{ ...GRANOLA_BAR, proteinG: 41 }, /proteinG \(41 g\) cannot be more than the 40 g/],
      [{ ...GRANOLA_BAR, per: "cup" }, /per must be 100g or serving/],
      [{ ...GRANOLA_BAR, kcal: -1 }, /kcal must be between 0 and 10000/],
      [{ ...GRANOLA_BAR, name: " " }, /name must be 1 to 200 characters/],
      // Its figures per 100 g would be infinite.
      [{ ...GRANOLA_BAR, servingG: 5e-324 }, /servingG must be between 0\.1 and 5000 g/],
    ] as const;
    for (const [body, message] of refused) {
      const response = await api.post("/api/custom-foods", body);
      expect(response.status).toBe(400);
      expect(response.body.error).toMatch(message);
    }
    expect((await api.get("/api/custom-foods")).body).toEqual([]);

    const food = await made(api.post("/api/custom-foods", { name: "Plain skyr", per: "100g", kcal: 63, proteinG: 11 }));
    const patched = await api.patch(`/api/custom-foods/${food.id}`, { per: "serving" });
    expect(patched.status).toBe(400);
    expect(patched.body.error).toMatch(/servingG is required/);
    expect((await api.get(`/api/custom-foods/${food.id}`)).body).toEqual(food);
  });
});

describe("a recipe", () => {
  it("sums its ingredients, per serving and per 100 g of the dish, and is searched and logged by servings or grams", async () => {
    const api = await newUser();
    const granola = await made(api.post("/api/custom-foods", GRANOLA_BAR));
    const recipe = await made(api.post("/api/recipes", smoothie(granola.id)));
    // 120 g banana: 106.8 kcal, 1.31 protein, 0.4 fat, 27.41 carbs, 3.12 fiber, 14.68 sugars, 1.2 mg sodium; a 40 g bar: 180, 4, 7, 26, 3, ?, 50.
    expect(recipe).toMatchObject({
      id: expect.stringMatching(/^recipe:/), name: "Banana oat smoothie", servings: 2, cookedWeightG: null, weightG: 160, servingG: 80,
      ingredients: [
        { foodId: BANANA, portion: { grams: 120 }, name: "Bananas, raw", grams: 120, kcal: 106.8, proteinG: 1.31 },
        { foodId: granola.id, portion: { servings: 1 }, name: "Oat granola bar (Homemade)", grams: 40, kcal: 180, proteinG: 4 },
      ],
      perServing: { kcal: 143.4, fatG: 3.7, fiberG: 3.06, sugarsG: null, sodiumMg: 25.6 },
      per100g: { kcal: 179.25, sugarsG: null },
    });
    const perServing = recipe.perServing as { proteinG: number; carbsG: number };
    expect(perServing.proteinG).toBeCloseTo(2.655, 1);
    expect(perServing.carbsG).toBeCloseTo(26.705, 1);
    expect((await api.get(`/api/recipes/${recipe.id}`)).body).toEqual(recipe);
    expect((await api.get("/api/recipes")).body).toEqual([recipe]);

    expect((await api.get(`/api/foods/${recipe.id}`)).body).toMatchObject({
      id: recipe.id, name: "Banana oat smoothie", category: "My recipes", portions: [{ id: 1, amount: 1, unit: "serving", grams: 80 }],
    });
    expect((await api.get("/api/foods?q=smoothie&limit=3")).body[0]).toMatchObject({ id: recipe.id, category: "My recipes" });

    const serving = await logFood(api, recipe.id, { servings: 1 });
    expect(serving.status, JSON.stringify(serving.body)).toBe(200);
    expect(serving.body).toMatchObject({ name: "Banana oat smoothie", kcal: 143.4, grams: 80, source: recipe.id });
    expect(serving.body.proteinG).toBeCloseTo(2.655, 1);
    expect((await logFood(api, recipe.id, { grams: 100 })).body).toMatchObject({ kcal: 179.3, grams: 100, source: recipe.id });
  });

  it("weighed cooked, divides by the cooked weight per 100 g; replaced whole", async () => {
    const api = await newUser();
    const granola = await made(api.post("/api/custom-foods", GRANOLA_BAR));
    const recipe = await made(api.post("/api/recipes", smoothie(granola.id)));
    const replaced = await api.put(`/api/recipes/${recipe.id}`, { ...smoothie(granola.id), name: "Baked banana oats", cookedWeightG: 200 });
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    expect(replaced.body).toMatchObject({ id: recipe.id, name: "Baked banana oats", weightG: 200, servingG: 100, perServing: { kcal: 143.4 }, per100g: { kcal: 143.4 } });
  });

  it("follows an edit of a food of one's own in it; logged items keep their numbers; the food cannot go while a recipe holds it", async () => {
    const api = await newUser();
    const granola = await made(api.post("/api/custom-foods", GRANOLA_BAR));
    const recipe = await made(api.post("/api/recipes", smoothie(granola.id)));
    const loggedBar = (await logFood(api, granola.id, { servings: 1 })).body;
    const loggedSmoothie = (await logFood(api, recipe.id, { servings: 1 })).body;

    const edited = await api.patch(`/api/custom-foods/${granola.id}`, { kcal: 200, name: "Granola bar" });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body).toMatchObject({ kcal: 200, proteinG: 4, name: "Granola bar", per100g: { kcal: 500 } });
    const after = (await api.get(`/api/recipes/${recipe.id}`)).body;
    expect(after.ingredients[1]).toMatchObject({ name: "Granola bar (Homemade)", grams: 40, kcal: 200 });
    expect(after.perServing.kcal).toBe(153.4);

    const refused = await api.delete(`/api/custom-foods/${granola.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatch(/ingredient of "Banana oat smoothie"/);
    expect((await api.get(`/api/custom-foods/${granola.id}`)).status).toBe(200);

    expect((await api.delete(`/api/recipes/${recipe.id}`)).status).toBe(200);
    expect((await api.delete(`/api/custom-foods/${granola.id}`)).status).toBe(200);
    for (const id of [granola.id, recipe.id]) {
      expect((await api.get(`/api/foods/${id}`)).status).toBe(404);
      expect((await logFood(api, id, { servings: 1 })).status).toBe(404);
    }
    const items = (await api.get(`/api/nutrition/items?date=${DAY}`)).body;
    expect(items).toEqual([loggedBar, loggedSmoothie]);
    expect(items.map((item: { kcal: number }) => item.kcal)).toEqual([180, 143.4]);
  });

  it("refuses an ingredient that is missing, a recipe, or a measure it lacks, naming it, and stores nothing", async () => {
    const api = await newUser();
    const granola = await made(api.post("/api/custom-foods", GRANOLA_BAR));
    const recipe = await made(api.post("/api/recipes", smoothie(granola.id)));
    const banana = [{ foodId: BANANA, portion: { grams: 100 } }];
    const cases = [
      [[{ foodId: "usda:999999999", portion: { grams: 10 } }], 1, 404, /^ingredients\.0: no food usda:999999999/],
      [[{ foodId: BANANA, portion: { grams: 10 } }, { foodId: recipe.id, portion: { servings: 1 } }], 1, 400, /not a recipe/],
      [[{ foodId: BANANA, portion: { measure: 99 } }], 1, 400, /^ingredients\.0: portion\.measure 99/],
      [[{ foodId: "usda:167806", portion: { grams: 10 } }], 1, 422, /^ingredients\.0: usda:167806 has no nutrient values/],
      [[], 1, 400, /ingredients must hold 1 to 50 foods/],
      // A serving under a gram would make the figures per 100 g of the dish meaningless (or infinite).
      [[{ foodId: BANANA, portion: { grams: 0.5 } }], 1, 422, /^a serving would weigh 0\.5 g .*at least 1 g/],
      [banana, 7.4e-323, 400, /^servings must be between 0\.1 and 100/],
      [[{ foodId: BANANA, portion: { servings: 3.6e-54 } }], 1, 422, /^a serving would weigh 0 g/],
    ] as const;
    for (const [ingredients, servings, status, message] of cases) {
      const response = await api.post("/api/recipes", { name: "Nope", servings, ingredients });
      expect(response.status, JSON.stringify(response.body)).toBe(status);
      expect(response.body.error).toMatch(message);
      const replaced = await api.put(`/api/recipes/${recipe.id}`, { name: "Nope", servings, ingredients });
      expect(replaced.status).toBe(status);
    }
    expect((await api.get("/api/recipes")).body).toEqual([recipe]);
  });
});

describe("another account's", () => {
  it("foods and recipes are not found, never searched, never logged, never used, and left as they were", async () => {
    const owner = await newUser();
    const stranger = await newUser();
    const granola = await made(owner.post("/api/custom-foods", { ...GRANOLA_BAR, name: "Zanzibar crunch" }));
    const recipe = await made(owner.post("/api/recipes", { ...smoothie(granola.id), name: "Zanzibar shake" }));

    for (const [id, path] of [[granola.id, "custom-foods"], [recipe.id, "recipes"]] as const) {
      expect((await stranger.get(`/api/foods/${id}`)).status).toBe(404);
      expect((await stranger.get(`/api/${path}/${id}`)).status).toBe(404);
      expect((await stranger.delete(`/api/${path}/${id}`)).status).toBe(404);
      expect((await logFood(stranger, id, { servings: 1 })).status).toBe(404);
    }
    expect((await stranger.patch(`/api/custom-foods/${granola.id}`, { kcal: 1 })).status).toBe(404);
    expect((await stranger.put(`/api/recipes/${recipe.id}`, smoothie(granola.id))).status).toBe(404);
    expect((await stranger.post("/api/recipes", smoothie(granola.id))).status).toBe(404);
    expect(((await stranger.get("/api/foods?q=zanzibar")).body as { id: string }[]).filter((f) => !f.id.startsWith("usda:"))).toEqual([]);
    expect((await stranger.get("/api/custom-foods")).body).toEqual([]);
    expect((await stranger.get("/api/recipes")).body).toEqual([]);

    expect((await owner.get(`/api/custom-foods/${granola.id}`)).body).toEqual(granola);
    expect((await owner.get(`/api/recipes/${recipe.id}`)).body).toEqual(recipe);
    expect(((await owner.get("/api/foods?q=zanzibar")).body as { id: string }[]).slice(0, 2).map((f) => f.id).sort()).toEqual([granola.id, recipe.id].sort());
  });
});
