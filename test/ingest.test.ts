// Scale ingest over real HTTP: the shared token, only on its own route (docs/decisions/0021-scale-ingest-token.md).
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { client } from "./support/http.ts";
import { startSystem, type System } from "./support/system.ts";

const TOKEN = randomBytes(24).toString("base64url");
/** Requests per account per minute: above what any other test here sends for one account. */
const LIMIT = 12;
let system: System;

beforeAll(async () => {
  system = await startSystem({ databaseUrl: inject("databaseUrl"), natsUrl: inject("natsUrl"), env: { INGEST_TOKEN: TOKEN, RATE_LIMIT_PER_MINUTE: String(LIMIT) } });
});
afterAll(() => system?.stop());

const scale = () => client(system.url, TOKEN);
const readings = async (key: string) => (await client(system.url, key).get("/api/weight")).body.items as { weightKg: number; ts: number; source: string; bodyFatPct: number | null }[];

describe("scale ingest", () => {
  it("stores a reading for the account named by email, with source scale", async () => {
    const { email, key } = await system.account();
    const ts = Date.UTC(2026, 0, 5, 7);
    const answer = await scale().post("/api/ingest/weight", { email: email.toUpperCase(), weightKg: 81.4, bodyFatPct: 19.5, ts });
    expect(answer).toMatchObject({ status: 200, body: { ok: true } });
    expect(await readings(key)).toEqual([expect.objectContaining({ weightKg: 81.4, bodyFatPct: 19.5, ts, source: "scale" })]);
  });

  it("stores a repeat once: by (email, externalId), or without it by (email, ts)", async () => {
    const { email, key } = await system.account();
    const ts = Date.UTC(2026, 0, 6, 7);
    for (let i = 0; i < 2; i++) {
      expect((await scale().post("/api/ingest/weight", { email, weightKg: 80, ts, externalId: "scale-1" })).body).toEqual({ ok: true });
      expect((await scale().post("/api/ingest/weight", { email, weightKg: 80.2, externalId: "scale-2" })).body).toEqual({ ok: true });
      expect((await scale().post("/api/ingest/weight", { email, weightKg: 79.9, ts: ts + 60_000 })).body).toEqual({ ok: true });
    }
    expect((await readings(key)).map((r) => r.weightKg).sort()).toEqual([79.9, 80, 80.2]);
    // The same instant under an id is another reading than the instant without one.
    expect((await scale().post("/api/ingest/weight", { email, weightKg: 79.9, ts: ts + 60_000, externalId: "scale-3" })).status).toBe(200);
    expect(await readings(key)).toHaveLength(4);
  });

  it("answers 404 for an email that is not an account", async () => {
    expect((await scale().post("/api/ingest/weight", { email: "nobody-here@example.com", weightKg: 80 })).status).toBe(404);
  });

  it("refuses out-of-bounds readings with the same messages as POST /api/weight", async () => {
    const { email } = await system.account();
    for (const [body, field] of [
      [{ email, weightKg: 8.9 }, "weightKg must be between 9 and 320 kg"],
      [{ email, weightKg: 320.1 }, "weightKg must be between 9 and 320 kg"],
      [{ email, weightKg: 80, bodyFatPct: 81 }, "bodyFatPct must be between 1 and 80 percent"],
      [{ email, weightKg: 80, ts: -1 }, "ts"],
      [{ email, weightKg: 80, externalId: "x".repeat(201) }, "externalId must be 1 to 200 characters"],
      [{ email: "not-an-email", weightKg: 80 }, "email must be an email address"],
      [{ weightKg: 80 }, "email"],
    ] as const) {
      const answer = await scale().post("/api/ingest/weight", body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error).toContain(field);
    }
  });

  it("accepts only the exact token: a wrong, longer, shorter or missing one is a 401, an API key too", async () => {
    const { email, key } = await system.account();
    for (const authorization of [`Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, `Bearer ${"a".repeat(TOKEN.length)}`, `Bearer ${key}`, undefined]) {
      const answer = await client(system.url).post("/api/ingest/weight", { email, weightKg: 80 }, authorization ? { authorization } : {});
      expect(answer.status, authorization).toBe(401);
    }
    expect(await readings(key)).toEqual([]);
  });

  it("refuses the token with 403 on every other route", async () => {
    for (const [method, path] of [["get", "/api/weight"], ["get", "/api/dashboard"], ["get", "/api/keys"], ["get", "/api/sessions"], ["get", "/api/no-such-route"]] as const) {
      const answer = await scale()[method](path);
      expect(answer.status, path).toBe(403);
      expect(answer.body.error).toMatch(/ingest token/);
    }
    expect((await scale().post("/api/weight", { weightKg: 80 })).status).toBe(403);
  });

  it("is rate-limited per account like the API", async () => {
    const { email } = await system.account();
    const { email: other } = await system.account();
    const statuses = [];
    for (let i = 0; i < LIMIT; i++) statuses.push((await scale().post("/api/ingest/weight", { email, weightKg: 80, externalId: `r${i}` })).status);
    expect(statuses.every((s) => s === 200)).toBe(true);
    const limited = await scale().post("/api/ingest/weight", { email, weightKg: 80, externalId: "r-last" });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await scale().post("/api/ingest/weight", { email: other, weightKg: 80 })).status).toBe(200);
  });
});

describe("scale ingest without a token configured", () => {
  it("answers 404", async () => {
    const plain = await startSystem({ databaseUrl: inject("databaseUrl"), natsUrl: inject("natsUrl") });
    try {
      const { email } = await plain.account();
      const answer = await client(plain.url).post("/api/ingest/weight", { email, weightKg: 80 }, { authorization: `Bearer ${TOKEN}` });
      expect(answer.status).toBe(404);
      expect((await client(plain.url).get("/openapi.json")).body.paths["/api/ingest/weight"]?.post).toBeDefined();
    } finally {
      await plain.stop();
    }
  });
});
