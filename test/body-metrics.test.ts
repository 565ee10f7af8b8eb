import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { client } from "./support/http.ts";
import { startSystem, type System } from "./support/system.ts";

let system: System;
let alice: ReturnType<typeof client>;
let bob: ReturnType<typeof client>;

beforeAll(async () => {
  system = await startSystem({ databaseUrl: inject("databaseUrl"), natsUrl: inject("natsUrl") });
  alice = client(system.url, (await system.account()).key);
  bob = client(system.url, (await system.account()).key);
});
afterAll(() => system?.stop());

describe("POST /api/weight", () => {
  it("logs a reading and lists it newest first", async () => {
    const first = await alice.post("/api/weight", { weightKg: 82.5, ts: Date.parse("2026-11-20T07:00:00Z") });
    const second = await alice.post("/api/weight", { weightKg: 82.1, bodyFatPct: 18.5, note: "after run" });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ ok: true, id: expect.any(String) });
    const list = await alice.get("/api/weight");
    expect(list.status).toBe(200);
    expect(list.body.items.map((r: { id: string }) => r.id)).toEqual([second.body.id, first.body.id]);
    expect(list.body.items[0]).toMatchObject({ weightKg: 82.1, bodyFatPct: 18.5, note: "after run", source: "manual" });
  });

  it.each([8.9, 320.1, 0, -5])("refuses weightKg %d with a 400 naming the 9 to 320 kg bound", async (weightKg) => {
    const response = await alice.post("/api/weight", { weightKg });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: "weightKg must be between 9 and 320 kg" });
  });

  it.each([9, 320])("accepts weightKg %d at the bound", async (weightKg) => {
    expect((await alice.post("/api/weight", { weightKg })).status).toBe(200);
  });

  it.each([0.9, 80.1])("refuses bodyFatPct %d outside 1 to 80", async (bodyFatPct) => {
    const response = await alice.post("/api/weight", { weightKg: 80, bodyFatPct });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(/bodyFatPct must be between 1 and 80/);
  });

  it("refuses a missing or non-numeric weightKg", async () => {
    expect((await alice.post("/api/weight", {})).status).toBe(400);
    expect((await alice.post("/api/weight", { weightKg: "80" })).status).toBe(400);
  });

  it("truncates a note longer than 500 characters", async () => {
    const { body } = await alice.post("/api/weight", { weightKg: 70, note: "n".repeat(600), ts: 1_000 });
    const list = await alice.get("/api/weight?to=2000");
    expect(list.body.items.find((r: { id: string }) => r.id === body.id).note).toHaveLength(500);
  });

  it("ignores accountId, id and createdAt sent in the body", async () => {
    const forged = { weightKg: 71, accountId: "00000000-0000-4000-8000-000000000000", id: "00000000-0000-4000-8000-000000000001", createdAt: 5 };
    const { body } = await bob.post("/api/weight", forged);
    expect(body.id).not.toBe(forged.id);
    const mine = await bob.get("/api/weight");
    expect(mine.body.items.find((r: { id: string }) => r.id === body.id).createdAt).toBeGreaterThan(1_000_000);
  });

  it("answers bad JSON with a 400 in the envelope", async () => {
    const response = await alice.post("/api/weight", "{not json");
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: "body is not valid JSON" });
  });

  it("answers a text/plain body with 415", async () => {
    const response = await alice.post("/api/weight", JSON.stringify({ weightKg: 80 }), { "content-type": "text/plain" });
    expect(response.status).toBe(415);
    expect(response.body.error).toMatch(/application\/json/);
  });

  it("answers a body over 64 KiB with 413 and stores nothing", async () => {
    const before = (await alice.get("/api/weight?limit=200")).body.items.length;
    const response = await alice.post("/api/weight", { weightKg: 80, note: "x".repeat(70 * 1024) });
    expect(response.status).toBe(413);
    expect(response.body.error).toBeTypeOf("string");
    expect((await alice.get("/api/weight?limit=200")).body.items.length).toBe(before);
  });

  it("refuses a body with __proto__", async () => {
    const response = await alice.post("/api/weight", '{"weightKg": 80, "__proto__": {"admin": true}}');
    expect(response.status).toBe(400);
  });
});

describe("PATCH and DELETE /api/weight/{id}", () => {
  it("updates the note, and null clears it", async () => {
    const { body } = await alice.post("/api/weight", { weightKg: 75, note: "first", ts: 5_000 });
    expect((await alice.patch(`/api/weight/${body.id}`, { note: "second" })).body).toEqual({ ok: true });
    const find = async () => (await alice.get("/api/weight?to=6000")).body.items.find((r: { id: string }) => r.id === body.id);
    expect((await find()).note).toBe("second");
    expect((await alice.patch(`/api/weight/${body.id}`, { note: null })).status).toBe(200);
    expect((await find()).note).toBeNull();
  });

  it("requires the note field on edit", async () => {
    const { body } = await alice.post("/api/weight", { weightKg: 75 });
    expect((await alice.patch(`/api/weight/${body.id}`, {})).status).toBe(400);
  });

  it("answers another account's id exactly like an unknown id", async () => {
    const { body } = await alice.post("/api/weight", { weightKg: 76, note: "mine" });
    const unknown = "8f0e2b8e-5b1a-4d8e-9a51-2b6f3c1d0e9a";
    const theirs = await bob.patch(`/api/weight/${body.id}`, { note: "hacked" });
    const missing = await bob.patch(`/api/weight/${unknown}`, { note: "hacked" });
    expect(theirs.status).toBe(404);
    expect(theirs.body).toEqual(missing.body);
    expect((await bob.delete(`/api/weight/${body.id}`)).status).toBe(404);
    const still = (await alice.get("/api/weight?limit=200")).body.items.find((r: { id: string }) => r.id === body.id);
    expect(still.note).toBe("mine");
  });

  it("refuses an id that is not a UUID with 400", async () => {
    expect((await alice.patch("/api/weight/not-a-uuid", { note: "x" })).status).toBe(400);
  });

  it("deletes a reading once", async () => {
    const { body } = await alice.post("/api/weight", { weightKg: 77 });
    expect((await alice.delete(`/api/weight/${body.id}`)).body).toEqual({ ok: true });
    expect((await alice.delete(`/api/weight/${body.id}`)).status).toBe(404);
  });
});

describe("GET /api/weight", () => {
  it("pages with a cursor without repeating or skipping readings and filters by range", async () => {
    const carol = client(system.url, (await system.account()).key);
    const base = Date.parse("2026-01-01T00:00:00Z");
    for (let i = 0; i < 7; i++) await carol.post("/api/weight", { weightKg: 60 + i, ts: base + i * 3_600_000 });
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { items: { weightKg: number }[]; nextCursor: string | null } } = await carol.get(
        `/api/weight?limit=3${cursor ? `&cursor=${cursor}` : ""}`,
      );
      seen.push(...page.body.items.map((r) => r.weightKg));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual([66, 65, 64, 63, 62, 61, 60]);
    const ranged = await carol.get(`/api/weight?from=${base + 3_600_000}&to=${base + 3 * 3_600_000}`);
    expect(ranged.body.items.map((r: { weightKg: number }) => r.weightKg)).toEqual([62, 61]);
  });

  it("refuses limit=100000 and a forged cursor with 400", async () => {
    expect((await alice.get("/api/weight?limit=100000")).status).toBe(400);
    expect((await alice.get("/api/weight?cursor=abc")).status).toBe(400);
  });
});

describe("measurements", () => {
  it("logs, filters by site and deletes", async () => {
    const dave = client(system.url, (await system.account()).key);
    const waist = await dave.post("/api/measurements", { site: "waist", valueCm: 82 });
    await dave.post("/api/measurements", { site: "shoulders", valueCm: 121 });
    expect(waist.body).toEqual({ ok: true, id: expect.any(String) });
    const waists = await dave.get("/api/measurements?site=waist");
    expect(waists.body.items).toEqual([expect.objectContaining({ site: "waist", valueCm: 82 })]);
    expect((await bob.delete(`/api/measurements/${waist.body.id}`)).status).toBe(404);
    expect((await dave.delete(`/api/measurements/${waist.body.id}`)).status).toBe(200);
    expect((await dave.get("/api/measurements?site=waist")).body.items).toEqual([]);
  });

  it("refuses an unknown site and values outside 5 to 300 cm", async () => {
    expect((await alice.post("/api/measurements", { site: "ankle", valueCm: 20 })).body.error).toMatch(/site must be one of/);
    expect((await alice.post("/api/measurements", { site: "waist", valueCm: 4 })).body.error).toBe("valueCm must be between 5 and 300 cm");
    expect((await alice.post("/api/measurements", { site: "waist", valueCm: 301 })).status).toBe(400);
  });
});

describe("targets", () => {
  it("is null until set, then replaced as a whole", async () => {
    const erin = client(system.url, (await system.account()).key);
    expect((await erin.get("/api/targets")).body).toBeNull();
    const set = await erin.put("/api/targets", { goalWeightKg: 75, dailyKcalTarget: 2200, proteinTargetG: 150 });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ id: expect.any(Number), goalWeightKg: 75, dailyKcalTarget: 2200, proteinTargetG: 150, startDate: null });
    const replaced = await erin.put("/api/targets", { dailyKcalTarget: 2000, startDate: 1_767_225_600_001, targetDate: 1_788_912_000_999 });
    expect(replaced.body).toMatchObject({ goalWeightKg: null, dailyKcalTarget: 2000, proteinTargetG: null, startDate: 1_767_225_600_001, targetDate: 1_788_912_000_999 });
    expect((await erin.get("/api/targets")).body).toEqual(replaced.body);
  });

  it("refuses a target date before the start date and out-of-range goals", async () => {
    expect((await alice.put("/api/targets", { startDate: 2_000, targetDate: 1_000 })).body.error).toMatch(/targetDate must be after startDate/);
    expect((await alice.put("/api/targets", { dailyKcalTarget: 50 })).status).toBe(400);
    expect((await alice.put("/api/targets", { goalWeightKg: 400 })).body.error).toBe("goalWeightKg must be between 9 and 320 kg");
  });
});

describe("the door", () => {
  it("answers 401 without a credential and with a wrong key", async () => {
    const anonymous = await client(system.url).get("/api/weight");
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect((await client(system.url, "fit_wrong").get("/api/weight")).status).toBe(401);
  });

  it("refuses a request straight to a service without the gateway's assertion", async () => {
    const direct = await fetch(`${system.services.bodyMetrics}/api/weight`, { headers: { authorization: "Bearer x" } });
    expect(direct.status).toBe(401);
    const forged = await fetch(`${system.services.bodyMetrics}/api/weight`, { headers: { "x-fit-assertion": "e30.e30.x" } });
    expect(forged.status).toBe(401);
  });

  it("lets a read-only key read but not write", async () => {
    const reader = client(system.url, (await system.account(["weight:read"])).key);
    expect((await reader.get("/api/weight")).status).toBe(200);
    const write = await reader.post("/api/weight", { weightKg: 80 });
    expect(write.status).toBe(403);
    expect(write.headers.get("www-authenticate")).toMatch(/insufficient_scope/);
  });

  it("answers unknown routes and methods with 404 in the envelope", async () => {
    expect((await alice.get("/api/nope")).status).toBe(404);
    const wrongMethod = await alice.put("/api/weight", { weightKg: 80 });
    expect(wrongMethod.status).toBe(404);
    expect(wrongMethod.body).toEqual({ error: "not found" });
  });

  it("serves a valid OpenAPI document without a credential", async () => {
    const response = await client(system.url).get("/openapi.json");
    expect(response.status).toBe(200);
    expect(response.body.openapi).toBe("3.1.0");
    expect(Object.keys(response.body.paths)).toEqual(expect.arrayContaining(["/api/weight", "/api/weight/{id}", "/api/measurements", "/api/targets"]));
  });

  it("reports ready when database and bus answer", async () => {
    expect((await client(system.url).get("/readyz")).status).toBe(200);
    expect((await fetch(`${system.services.bodyMetrics}/readyz`)).status).toBe(200);
  });
});
