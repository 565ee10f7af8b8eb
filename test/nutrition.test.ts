import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { client } from "./support/http.ts";
import { startSystem, type System } from "./support/system.ts";

let system: System;
const newUser = async () => {
  const account = await system.account();
  return { ...account, api: client(system.url, account.key) };
};
const food = (date: string, kcal: number, proteinG: number, extra: Record<string, unknown> = {}) => ({
  date, name: "food", kcal, proteinG, ...extra,
});

beforeAll(async () => {
  system = await startSystem({ databaseUrl: inject("databaseUrl"), natsUrl: inject("natsUrl") });
});
afterAll(() => system?.stop());

describe("food items", () => {
  it("logs an item and returns it with its id", async () => {
    const { api } = await newUser();
    const response = await api.post("/api/nutrition/items", food("2026-11-22", 95, 0.5, { name: "apple", meal: "snack", quantity: 1, unit: "piece", carbsG: 25 }));
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: expect.any(String), name: "apple", kcal: 95, meal: "snack", fatG: null, date: "2026-11-22" });
    expect((await api.get("/api/nutrition/items?date=2026-11-22")).body).toEqual([response.body]);
  });

  it.each([
    [{ kcal: -1 }, /kcal must be between 0 and 10000/],
    [{ kcal: 50_000 }, /kcal must be between 0 and 10000/],
    [{ proteinG: 2000 }, /proteinG/],
    [{ date: "2026-02-30" }, /date/],
    [{ date: undefined }, /^date is required$/],
    [{ date: 20261122 }, /^date must be a string$/],
    [{ meal: "brunch" }, /meal must be one of/],
    [{ name: "" }, /name must be 1 to 200/],
  ])("refuses %j with a 400 naming the field", async (override, message) => {
    const { api } = await newUser();
    const response = await api.post("/api/nutrition/items", { ...food("2026-11-22", 100, 10), ...override });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(message);
    expect((await api.get("/api/nutrition")).body).toEqual([]);
  });

  it("refuses a missing or invalid date on the item list", async () => {
    const { api } = await newUser();
    expect((await api.get("/api/nutrition/items")).status).toBe(400);
    expect((await api.get("/api/nutrition/items?date=today")).status).toBe(400);
  });
});

describe("daily totals", () => {
  it("shows a write's total at once, and follows edits and deletes", async () => {
    const { api, email } = await newUser();
    const a = (await api.post("/api/nutrition/items", food("2026-11-20", 500, 30))).body;
    const b = (await api.post("/api/nutrition/items", food("2026-11-20", 250.5, 12.3))).body;
    expect((await api.get("/api/nutrition")).body).toEqual([
      { userEmail: email, date: "2026-11-20", kcal: 750.5, proteinG: 42.3, fatG: null, carbsG: null, fiberG: null, macrosUnknownItems: 2, hitProtein: false, adherence: null },
    ]);
    await api.patch(`/api/nutrition/items/${b.id}`, { kcal: 100 });
    expect((await api.get("/api/nutrition")).body[0]).toMatchObject({ kcal: 600, proteinG: 42.3 });
    await api.patch(`/api/nutrition/items/${b.id}`, { date: "2026-11-21" });
    expect((await api.get("/api/nutrition")).body.map((t: { date: string; kcal: number }) => [t.date, t.kcal])).toEqual([
      ["2026-11-21", 100],
      ["2026-11-20", 500],
    ]);
    expect((await api.delete(`/api/nutrition/items/${a.id}`)).body).toEqual({ ok: true });
    expect((await api.get("/api/nutrition")).body.map((t: { date: string }) => t.date)).toEqual(["2026-11-21"]);
  });

  it("keeps the stored projection equal to the sum of items once events are applied", async () => {
    const { api, accountId } = await newUser();
    for (let i = 0; i < 5; i++) await api.post("/api/nutrition/items", food("2026-10-01", 100 + i, 10));
    await expect
      .poll(async () => (await nutritionRows(accountId)).pending, { timeout: 10_000 })
      .toBe(0);
    expect((await nutritionRows(accountId)).totals).toEqual([{ date: "2026-10-01", kcal: 510, protein_g: 50, item_count: 5 }]);
  });

  it("lists at most 60 totals, newest first", async () => {
    const { api } = await newUser();
    const days = Array.from({ length: 65 }, (_, i) => new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10));
    for (const date of days) await api.post("/api/nutrition/items", food(date, 100, 10));
    const totals = (await api.get("/api/nutrition")).body as { date: string }[];
    expect(totals).toHaveLength(60);
    expect(totals.map((t) => t.date)).toEqual(days.slice(5).reverse());
  });

  it("buckets adherence at 89.9, 90, 110 and 110.1 % of the target and checks protein", async () => {
    const { api } = await newUser();
    await api.put("/api/targets", { dailyKcalTarget: 2000, proteinTargetG: 100 });
    const cases = [["2026-09-01", 1798, "under"], ["2026-09-02", 1800, "on"], ["2026-09-03", 2200, "on"], ["2026-09-04", 2202, "over"]] as const;
    for (const [date, kcal] of cases) await api.post("/api/nutrition/items", food(date, kcal, date === "2026-09-01" ? 100 : 99.9));
    await expect
      .poll(async () => (await api.get("/api/nutrition")).body.map((t: { adherence: string }) => t.adherence), { timeout: 10_000 })
      .toEqual(cases.map(([, , bucket]) => bucket).reverse());
    const hit = (await api.get("/api/nutrition")).body.map((t: { hitProtein: boolean }) => t.hitProtein);
    expect(hit).toEqual([false, false, false, true]);
  });
});

describe("another account's items", () => {
  it("answer 404 exactly like unknown ids and stay untouched", async () => {
    const alice = await newUser();
    const bob = await newUser();
    const item = (await alice.api.post("/api/nutrition/items", food("2026-11-22", 300, 20))).body;
    const unknown = "4b7f6b0e-2c44-4f0a-9d1c-0f7a3c2e5d11";
    const theirs = await bob.api.delete(`/api/nutrition/items/${item.id}`);
    expect(theirs.status).toBe(404);
    expect(theirs.body).toEqual((await bob.api.delete(`/api/nutrition/items/${unknown}`)).body);
    expect((await bob.api.patch(`/api/nutrition/items/${item.id}`, { kcal: 1 })).status).toBe(404);
    expect((await alice.api.get("/api/nutrition/items?date=2026-11-22")).body).toEqual([item]);
    expect((await bob.api.get("/api/nutrition")).body).toEqual([]);
  });
});

/** Reads the nutrition schema directly: what the projection stored, and what is still waiting for its event. */
const nutritionRows = async (accountId: string) => {
  const pg = await import("pg");
  const db = new pg.default.Client({ connectionString: system.env.DATABASE_URL, options: "-c search_path=nutrition" });
  await db.connect();
  try {
    const totals = await db.query("SELECT date, kcal, protein_g, item_count FROM daily_total WHERE account_id = $1 ORDER BY date", [accountId]);
    const pending = await db.query("SELECT count(*)::int AS n FROM pending_day WHERE account_id = $1", [accountId]);
    return { totals: totals.rows, pending: pending.rows[0].n as number };
  } finally {
    await db.end();
  }
};
