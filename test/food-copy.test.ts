import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { client } from "./support/http.ts";
import { startSystem, type System } from "./support/system.ts";

// Log again (POST /api/nutrition/copy), the caller's recent foods, and day totals with fat, carbs and fibre, through
// the gateway on PostgreSQL (docs/decisions/0067-day-macros-sum-what-is-known.md).
let system: System;
let sql: pg.Client;
const newUser = async () => client(system.url, (await system.account()).key);

const BANANA = "usda:173944"; // 89 kcal, 1.09 g protein, 0.33 fat, 22.84 carbs, 2.6 fiber per 100 g
const OATS = { name: "oats", kcal: 380, proteinG: 13 };

beforeAll(async () => {
  system = await startSystem({ databaseUrl: inject("databaseUrl"), natsUrl: inject("natsUrl") });
  sql = new pg.Client({ connectionString: system.env["DATABASE_URL"] });
  await sql.connect();
});
afterAll(async () => {
  await sql?.end();
  await system?.stop();
});

type Api = Awaited<ReturnType<typeof newUser>>;
const items = async (api: Api, date: string) => (await api.get(`/api/nutrition/items?date=${date}`)).body as Record<string, unknown>[];
const logged = async (api: Api, body: object) => {
  const response = await api.post("/api/nutrition/items", body);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as Record<string, unknown>;
};
/** What a copy keeps of an item: all but its id, day, meal and times. */
const kept = ({ id: _id, date: _date, meal: _meal, createdAt: _c, updatedAt: _u, ...rest }: Record<string, unknown>) => rest;

describe("log again", () => {
  it("copies yesterday's lunch to today's dinner with its figures, portion and source, and today's totals follow", async () => {
    const api = await newUser();
    const banana = await logged(api, { date: "2026-11-20", meal: "lunch", foodId: BANANA, portion: { grams: 150 } });
    const oats = await logged(api, { date: "2026-11-20", meal: "lunch", ...OATS, note: "with milk" });
    await logged(api, { date: "2026-11-20", meal: "dinner", name: "soup", kcal: 200, proteinG: 8 });

    const copied = await api.post("/api/nutrition/copy", { from: { date: "2026-11-20", meal: "lunch" }, to: { date: "2026-11-21", meal: "dinner" } });
    expect(copied.status, JSON.stringify(copied.body)).toBe(200);
    expect(copied.body.map(kept)).toEqual([kept(banana), kept(oats)]);
    expect(copied.body.map((item: { date: string; meal: string }) => [item.date, item.meal])).toEqual([["2026-11-21", "dinner"], ["2026-11-21", "dinner"]]);
    expect(copied.body.map((item: { id: string }) => item.id)).not.toContain(banana.id);
    expect((await items(api, "2026-11-21")).map((item) => item.id), "the day lists the copies in their order").toEqual(copied.body.map((item: { id: string }) => item.id));
    expect(await items(api, "2026-11-20"), "the originals stay").toHaveLength(3);

    const day = (await api.get("/api/nutrition")).body.find((total: { date: string }) => total.date === "2026-11-21");
    expect(day).toMatchObject({ kcal: 513.5, proteinG: 14.6, fatG: 0.5, carbsG: 34.3, fiberG: 3.9, macrosUnknownItems: 1 });
  });

  it("copies a whole day, each item in its own meal, and the roll-up table sums it as for any add", async () => {
    const { key, accountId } = await system.account();
    const api = client(system.url, key);
    await logged(api, { date: "2026-11-18", meal: "breakfast", foodId: BANANA, portion: { grams: 100 } });
    await logged(api, { date: "2026-11-18", meal: "snack", ...OATS, fatG: 7, carbsG: 60, fiberG: 10 });
    const copied = await api.post("/api/nutrition/copy", { from: { date: "2026-11-18" }, to: { date: "2026-11-19" } });
    expect(copied.body.map((item: { meal: string }) => item.meal)).toEqual(["breakfast", "snack"]);

    await expect
      .poll(async () => (await sql.query(`SELECT ${["kcal", "protein_g", "fat_g", "carbs_g", "fiber_g"].map((c) => `round(${c}::numeric, 6)::float8 AS ${c}`).join(", ")}, macros_unknown_items, item_count FROM nutrition.daily_total WHERE account_id = $1 AND date = '2026-11-19'`, [accountId])).rows[0], { timeout: 10_000 })
      .toEqual({ kcal: 469, protein_g: 14.09, fat_g: 7.33, carbs_g: 82.84, fiber_g: 12.6, macros_unknown_items: 0, item_count: 2 });
    const dashboard = await api.get("/api/dashboard?date=2026-11-19");
    expect(dashboard.body.nutritionToday).toMatchObject({ kcal: 469, proteinG: 14.1, fatG: 7.3, carbsG: 82.8, fiberG: 12.6, macrosUnknownItems: 0 });
  });

  it("refuses, storing nothing: nothing logged there, the same meal again, a bad body, another person's day", async () => {
    const api = await newUser();
    const other = await newUser();
    await logged(api, { date: "2026-11-10", meal: "lunch", ...OATS });
    const refused = async (body: unknown, status: number, error: RegExp, as = api) => {
      const response = await as.post("/api/nutrition/copy", body);
      expect(response.status, JSON.stringify(response.body)).toBe(status);
      expect(response.body.error).toMatch(error);
    };
    await refused({ from: { date: "2026-11-10", meal: "dinner" }, to: { date: "2026-11-11" } }, 404, /^from: nothing is logged on 2026-11-10 at dinner/);
    await refused({ from: { date: "2026-11-10" }, to: { date: "2026-11-11" } }, 404, /nothing is logged/, other);
    await refused({ from: { date: "2026-11-10", meal: "lunch" }, to: { date: "2026-11-10" } }, 400, /to must be another date or meal than from/);
    await refused({ from: { date: "2026-11-10" }, to: { date: "2026-11-10", meal: "brunch" } }, 400, /meal must be one of/);
    await refused({ from: { date: "2026-13-40" }, to: { date: "2026-11-11" } }, 400, /from\.date/);
    await refused({ to: { date: "2026-11-11" } }, 400, /from/);
    expect(await items(api, "2026-11-11")).toEqual([]);
    expect(await items(api, "2026-11-10")).toHaveLength(1);
    expect(await items(other, "2026-11-11")).toEqual([]);
  });

  it("copies at most 100 items at once (422), one meal at a time beyond that", async () => {
    const api = await newUser();
    for (let i = 0; i < 101; i++) await logged(api, { date: "2026-11-05", meal: i === 0 ? "lunch" : "snack", ...OATS });
    const many = await api.post("/api/nutrition/copy", { from: { date: "2026-11-05" }, to: { date: "2026-11-06" } });
    expect(many.status, JSON.stringify(many.body)).toBe(422);
    expect(await items(api, "2026-11-06")).toEqual([]);
    expect((await api.post("/api/nutrition/copy", { from: { date: "2026-11-05", meal: "lunch" }, to: { date: "2026-11-06" } })).body).toHaveLength(1);
  }, 60_000);
});

describe("recent foods", () => {
  it("lists the foods a person logged, most often and lately first (a log 80 days old weighs little), and lifts them in that person's search only", async () => {
    const api = await newUser();
    const [today, longAgo] = [0, 80].map((days) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10));
    expect((await api.get("/api/foods/recent")).body).toEqual([]);
    const [first, second] = (await api.get("/api/foods?q=banana&limit=2")).body as { id: string }[];
    await logged(api, { date: today, foodId: second!.id, portion: { grams: 100 } });
    await logged(api, { date: longAgo, foodId: first!.id, portion: { grams: 100 } });
    await logged(api, { date: today, foodId: second!.id, portion: { grams: 50 } });

    const recent = await api.get("/api/foods/recent?limit=5");
    expect(recent.body).toMatchObject([{ id: second!.id, timesLogged: 2, lastLoggedOn: today }, { id: first!.id, timesLogged: 1, lastLoggedOn: longAgo }]);
    expect(((await api.get("/api/foods?q=banana&limit=2")).body as { id: string }[]).map((food) => food.id)).toEqual([second!.id, first!.id]);
    expect(((await (await newUser()).get("/api/foods?q=banana&limit=2")).body as { id: string }[]).map((food) => food.id)).toEqual([first!.id, second!.id]);
    expect((await api.get("/api/foods/recent?limit=0")).status).toBe(400);
  });

  it("lists the person's own foods and recipes beside the database's, and leaves out one deleted since", async () => {
    const api = await newUser();
    const today = new Date().toISOString().slice(0, 10);
    const skyr = (await api.post("/api/custom-foods", { name: "Plain skyr", per: "100g", kcal: 63, proteinG: 11 })).body as { id: string };
    const shake = (await api.post("/api/custom-foods", { name: "Shake", per: "100g", kcal: 50, proteinG: 8 })).body as { id: string };
    const bowl = (await api.post("/api/recipes", { name: "Skyr bowl", servings: 1, ingredients: [{ foodId: skyr.id, portion: { grams: 200 } }] })).body as { id: string };
    for (const foodId of [skyr.id, skyr.id, bowl.id, shake.id]) await logged(api, { date: today, foodId, portion: { grams: 100 } });
    expect((await api.delete(`/api/custom-foods/${shake.id}`)).status).toBe(200);

    const recent = (await api.get("/api/foods/recent")).body as { id: string; name: string; category: string; timesLogged: number }[];
    expect(recent.map(({ id, name, category, timesLogged }) => ({ id, name, category, timesLogged }))).toEqual([
      { id: skyr.id, name: "Plain skyr", category: "My foods", timesLogged: 2 },
      { id: bowl.id, name: "Skyr bowl", category: "My recipes", timesLogged: 1 },
    ]);
    expect((await (await newUser()).get("/api/foods/recent")).body).toEqual([]);
  });
});

describe("day totals with fat, carbs and fibre", () => {
  it("sum what the items give; an item typed without them is counted as unknown, and a day of only such items has null", async () => {
    const api = await newUser();
    await logged(api, { date: "2026-11-01", ...OATS });
    const typedOnly = await api.get("/api/dashboard?date=2026-11-01");
    expect(typedOnly.body.nutritionToday).toMatchObject({ kcal: 380, proteinG: 13, fatG: null, carbsG: null, fiberG: null, macrosUnknownItems: 1 });
    await logged(api, { date: "2026-11-01", name: "toast", kcal: 80, proteinG: 3, fatG: 1, carbsG: 15 });
    const mixed = (await api.get("/api/nutrition")).body.find((total: { date: string }) => total.date === "2026-11-01");
    expect(mixed).toMatchObject({ kcal: 460, fatG: 1, carbsG: 15, fiberG: null, macrosUnknownItems: 2 });
  });
});
