import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { client } from "./support/http.ts";
import { NUTELLA, startOpenFoodFacts, withCheckDigit, type OpenFoodFactsStandIn } from "./support/open-food-facts.ts";
import { startSystem, type System } from "./support/system.ts";

// Packaged foods by barcode through the gateway, from a local stand-in of the Open Food Facts API: the product as
// a food, cached, logged with a portion, and every way the API can fail (docs/decisions/0066-barcode-lookup.md).
let system: System;
let off: OpenFoodFactsStandIn;
let api: ReturnType<typeof client>;
let db: pg.Client;
const TIMEOUT_MS = 500;
const DAY = "2026-03-02";

/** A fresh valid barcode for each case, so one case's cache never answers another's. */
let serial = 100_000;
const newCode = () => withCheckDigit(`2000000${serial++}`);

beforeAll(async () => {
  off = await startOpenFoodFacts();
  system = await startSystem({
    databaseUrl: inject("databaseUrl"),
    natsUrl: inject("natsUrl"),
    env: { FOOD_BARCODE_URL: `${off.url}/`, FOOD_BARCODE_TIMEOUT_MS: String(TIMEOUT_MS) },
  });
  api = client(system.url, (await system.account()).key);
  db = new pg.Client({ connectionString: system.env.DATABASE_URL, options: "-c search_path=nutrition" });
  await db.connect();
});
afterAll(async () => {
  await db?.end();
  await system?.stop();
  await off?.close();
});

const cachedRows = async (gtin: string) => (await db.query("SELECT gtin FROM barcode_food WHERE gtin = $1", [gtin])).rowCount;

describe("a food by its barcode", () => {
  it("is the product as a food of the database: values per 100 g in its units, its serving as a portion", async () => {
    const response = await api.get(`/api/foods/barcode/${NUTELLA.code}`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toEqual({
      id: `off:${NUTELLA.code}`,
      name: "Nutella (Ferrero)",
      category: "Packaged foods (Open Food Facts)",
      per100g: { kcal: 539, proteinG: 6.3, fatG: 30.9, carbsG: 57.5, fiberG: 0, sugarsG: 56.3, sodiumMg: 42.8 },
      portions: [{ id: 1, amount: 1, unit: "serving (15 g)", grams: 15 }],
      caveat: expect.stringContaining("Open Food Facts"),
    });
    expect((await api.get(`/api/foods/off:${NUTELLA.code}`)).body).toEqual(response.body);
  });

  it("is fetched once and then served from the cache, until it is stale", async () => {
    const code = newCode();
    off.products.set(code, { product_name: "Oat bar", serving_quantity: 40, serving_size: "1 bar (40 g)", nutriments: { "energy-kcal_100g": 400, proteins_100g: 8 } });
    const times = () => off.asked.filter((asked) => asked === code).length;
    expect((await api.get(`/api/foods/barcode/${code}`)).body.per100g.kcal).toBe(400);
    off.products.set(code, { product_name: "Oat bar, new recipe", nutriments: { "energy-kcal_100g": 380, proteins_100g: 9 } });
    expect((await api.get(`/api/foods/barcode/${code}`)).body.name).toBe("Oat bar");
    expect((await api.get(`/api/foods/off:${code}`)).body.name).toBe("Oat bar");
    expect(times()).toBe(1);
    await db.query("UPDATE barcode_food SET fetched_at = now() - interval '31 days' WHERE gtin = $1", [code]);
    const fresh = await api.get(`/api/foods/barcode/${code}`);
    expect(fresh.body).toMatchObject({ name: "Oat bar, new recipe", per100g: { kcal: 380, proteinG: 9 }, portions: [] });
    expect(times()).toBe(2);
  });

  it("serves a stale product as it was when the API then fails", async () => {
    const code = newCode();
    off.products.set(code, { product_name: "Rye crackers", nutriments: { "energy-kcal_100g": 350, proteins_100g: 9 } });
    expect((await api.get(`/api/foods/barcode/${code}`)).status).toBe(200);
    await db.query("UPDATE barcode_food SET fetched_at = now() - interval '31 days' WHERE gtin = $1", [code]);
    off.failures.set(code, "error");
    const response = await api.get(`/api/foods/barcode/${code}`);
    expect(response.status).toBe(200);
    expect(response.body.name).toBe("Rye crackers");
  });

  it("files a UPC-A under its 13 digits, and reads kJ, salt and numeric strings into kcal, sodium mg and numbers", async () => {
    const upc = withCheckDigit("04963406000");
    off.products.set(`0${upc}`, { product_name: "Soda", nutriments: { energy_100g: "176", proteins_100g: "0", salt_100g: 0.025, fat_100g: -3 } });
    const response = await api.get(`/api/foods/barcode/${upc}`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({ id: `off:0${upc}`, per100g: { kcal: 42.065, proteinG: 0, sodiumMg: 10, fatG: null, carbsG: null } });
    expect((await api.get(`/api/foods/barcode/0${upc}`)).body.id).toBe(`off:0${upc}`);
  });

  it("is logged with foodId and a portion like a food of the database, its numbers computed", async () => {
    const response = await api.post("/api/nutrition/items", { date: DAY, foodId: `off:${NUTELLA.code}`, portion: { servings: 2 } });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({ name: "Nutella (Ferrero)", kcal: 161.7, proteinG: 1.89, fatG: 9.27, carbsG: 17.25, quantity: 2, source: `off:${NUTELLA.code}` });
    const grams = await api.post("/api/nutrition/items", { date: DAY, foodId: `off:${NUTELLA.code}`, portion: { grams: 100 } });
    expect(grams.body).toMatchObject({ kcal: 539, proteinG: 6.3 });
  });

  it("goes into a recipe by its serving, with its fat and carbs, and the recipe is logged from those figures", async () => {
    const recipe = await api.post("/api/recipes", {
      name: "Nutella banana", servings: 1,
      ingredients: [{ foodId: `off:${NUTELLA.code}`, portion: { servings: 1 } }, { foodId: "usda:173944", portion: { grams: 100 } }],
    });
    expect(recipe.status, JSON.stringify(recipe.body)).toBe(200);
    expect(recipe.body.ingredients[0]).toMatchObject({ foodId: `off:${NUTELLA.code}`, name: "Nutella (Ferrero)", grams: 15, kcal: 80.85 });
    // Nutella's 15 g and a banana's 100 g (89 kcal, 0.33 g fat, 22.84 g carbs).
    expect(recipe.body.perServing).toMatchObject({ kcal: 169.85, fatG: expect.closeTo(4.635 + 0.33, 1), carbsG: expect.closeTo(8.625 + 22.84, 1) });
    const logged = await api.post("/api/nutrition/items", { date: DAY, foodId: recipe.body.id, portion: { servings: 1 } });
    // A logged item keeps kcal to a tenth.
    expect(logged.body).toMatchObject({ source: recipe.body.id, kcal: 169.9 });
  });

  it("logs a product never looked up by fetching it, and refuses one without an energy value, storing nothing", async () => {
    const code = newCode();
    off.products.set(code, { product_name: "Mystery", nutriments: {} });
    const before = (await api.get(`/api/nutrition/items?date=${DAY}`)).body.length;
    const response = await api.post("/api/nutrition/items", { date: DAY, foodId: `off:${code}`, portion: { grams: 50 } });
    expect(response.status).toBe(422);
    expect(response.body.error).toMatch(/no nutrient values/);
    const unknown = await api.post("/api/nutrition/items", { date: DAY, foodId: `off:${newCode()}`, portion: { grams: 50 } });
    expect(unknown.status).toBe(404);
    expect((await api.get(`/api/nutrition/items?date=${DAY}`)).body.length).toBe(before);
  });
});

describe("refusals", () => {
  it.each([
    ["a mistyped digit", NUTELLA.code.replace(/3$/, "4"), /check digit/],
    ["a length no barcode has", "123456789", /8, 12, 13 or 14 digits/],
    ["letters", "30176204220OE", /8, 12, 13 or 14 digits/],
  ])("refuses %s with a 400 naming code, and asks nothing", async (_, code, message) => {
    const before = off.asked.length;
    const response = await api.get(`/api/foods/barcode/${code}`);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(message);
    expect(response.body.error).toMatch(/code/);
    expect(off.asked.length).toBe(before);
  });

  it("answers 404 for a product the API does not have, by HTTP 404 or by status 0, and caches nothing", async () => {
    const missing = newCode();
    expect((await api.get(`/api/foods/barcode/${missing}`)).status).toBe(404);
    const statusZero = newCode();
    off.failures.set(statusZero, "not-found-200");
    const response = await api.get(`/api/foods/barcode/${statusZero}`);
    expect(response.status).toBe(404);
    expect(response.body.error).toMatch(new RegExp(`no product with barcode ${statusZero}`));
    expect(await cachedRows(missing)).toBe(0);
    expect((await api.get(`/api/foods/off:${missing}`)).status).toBe(404);
    expect((await api.get(`/api/foods/off:${NUTELLA.code.replace(/3$/, "4")}`)).status).toBe(404);
  });

  it.each([
    ["a server error", "error", 502],
    ["junk that is not JSON", "junk", 502],
    ["JSON that is not a product", "not-a-product", 502],
    ["an answer past the size cap", "huge", 502],
    ["no answer in time", "hang", 504],
  ] as const)("answers %s from the API with %s, in the envelope, caching nothing", async (_, failure, status) => {
    const code = newCode();
    off.products.set(code, { product_name: "Never served", nutriments: { "energy-kcal_100g": 100 } });
    off.failures.set(code, failure);
    const started = Date.now();
    const response = await api.get(`/api/foods/barcode/${code}`);
    expect(response.status).toBe(status);
    expect(response.body).toEqual({ error: expect.stringMatching(/barcode lookup/) });
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 3000);
    expect(await cachedRows(code)).toBe(0);
  });
});
