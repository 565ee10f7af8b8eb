// POST /api/nutrition/estimate: the describe route's estimate as a preview, with nothing logged.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { FoodEstimated } from "@fit/contracts";
import { client } from "./support/http.ts";
import { startSystem, type System } from "./support/system.ts";

let system: System;

beforeAll(async () => {
  system = await startSystem({ databaseUrl: inject("databaseUrl"), natsUrl: inject("natsUrl") });
});
afterAll(() => system?.stop());

const DAY = new Date().toISOString().slice(0, 10);

describe("estimating food from words", () => {
  it("answers the items with their ranges and sources and logs nothing", async () => {
    const api = client(system.url, (await system.account()).key);
    const response = await api.post("/api/nutrition/estimate", { text: "two eggs and a banana" });
    expect(response.status).toBe(200);
    const estimated = FoodEstimated.parse(response.body);
    expect(estimated.items.length).toBeGreaterThanOrEqual(2);
    for (const item of estimated.items) {
      expect(item.kcal).toBeGreaterThan(0);
      expect(item.kcalRange.low).toBeLessThanOrEqual(item.kcal);
      expect(item.source).toMatch(/^table:/);
    }
    expect((await api.get(`/api/nutrition/items?date=${DAY}`)).body).toEqual([]);
  });

  it("refuses text without a food, as describing does", async () => {
    const api = client(system.url, (await system.account()).key);
    const response = await api.post("/api/nutrition/estimate", { text: "the quick brown fox" });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe("no food recognised in text");
  });
});
