// Every operation of the contracts × every kind of credential: the status, the envelope and WWW-Authenticate.
// Generated from the operations table, so an operation is covered the day it is added (it needs a sample
// request below, or this file fails naming it).
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { operationList, scopes, type Operation, type Scope } from "@fit/contracts";
import { uniqueTag } from "@fit/testing";
import { client } from "./support/http.ts";
import { signIn } from "./support/sign-in.ts";
import { startSystem, type System } from "./support/system.ts";

type Api = ReturnType<typeof client>;
interface Sample {
  path: string;
  body?: unknown;
}

const DAY = "2026-03-02";
const TS = Date.parse(`${DAY}T07:00:00Z`);
const created = async (response: Promise<{ status: number; body: { id?: string; workout?: { id?: string } } }>) => {
  const { status, body } = await response;
  const id = body.id ?? body.workout?.id;
  if (status !== 200 || !id) throw new Error(`creating a resource failed: ${status} ${JSON.stringify(body)}`);
  return id;
};

/** Things with ids: how to make one, and how its owner reads it back (to see that nobody else changed it). */
const resources = {
  weight: {
    create: (api: Api) => created(api.post("/api/weight", { weightKg: 80, note: "mine", ts: TS })),
    read: async (api: Api, id: string) => (await api.get("/api/weight?limit=200")).body.items.find((w: { id: string }) => w.id === id),
  },
  measurement: {
    create: (api: Api) => created(api.post("/api/measurements", { site: "waist", valueCm: 82, ts: TS })),
    read: async (api: Api, id: string) => (await api.get("/api/measurements?limit=200")).body.items.find((m: { id: string }) => m.id === id),
  },
  foodItem: {
    create: (api: Api) => created(api.post("/api/nutrition/items", { date: DAY, name: "oats", kcal: 380, proteinG: 13 })),
    read: async (api: Api, id: string) => (await api.get(`/api/nutrition/items?date=${DAY}`)).body.find((i: { id: string }) => i.id === id),
  },
  workout: {
    create: (api: Api) => created(api.post("/api/workouts/import", { source: "watch_device", externalId: uniqueTag("w"), activityType: "run", startedAt: TS, durationS: 1800 })),
    read: async (api: Api, id: string) => (await api.get(`/api/workouts/${id}`)).body,
  },
};
type Resource = keyof typeof resources;

/** A request each operation accepts from a credential allowed to make it; `owner` makes what it acts on. */
const samples: Record<string, { resource?: Resource; sample: (id: string) => Sample }> = {
  logWeight: { sample: () => ({ path: "/api/weight", body: { weightKg: 81.4 } }) },
  listWeights: { sample: () => ({ path: "/api/weight" }) },
  editWeightNote: { resource: "weight", sample: (id) => ({ path: `/api/weight/${id}`, body: { note: "edited" } }) },
  deleteWeight: { resource: "weight", sample: (id) => ({ path: `/api/weight/${id}` }) },
  logMeasurement: { sample: () => ({ path: "/api/measurements", body: { site: "neck", valueCm: 38 } }) },
  listMeasurements: { sample: () => ({ path: "/api/measurements" }) },
  deleteMeasurement: { resource: "measurement", sample: (id) => ({ path: `/api/measurements/${id}` }) },
  getTargets: { sample: () => ({ path: "/api/targets" }) },
  putTargets: { sample: () => ({ path: "/api/targets", body: { dailyKcalTarget: 2200, proteinTargetG: 150 } }) },
  listDailyTotals: { sample: () => ({ path: "/api/nutrition" }) },
  logFoodItem: { sample: () => ({ path: "/api/nutrition/items", body: { date: DAY, name: "apple", kcal: 95, proteinG: 0.5 } }) },
  listFoodItems: { sample: () => ({ path: `/api/nutrition/items?date=${DAY}` }) },
  editFoodItem: { resource: "foodItem", sample: (id) => ({ path: `/api/nutrition/items/${id}`, body: { kcal: 400 } }) },
  deleteFoodItem: { resource: "foodItem", sample: (id) => ({ path: `/api/nutrition/items/${id}` }) },
  describeFood: { sample: () => ({ path: "/api/nutrition/describe", body: { text: "two eggs", date: DAY } }) },
  describeWorkout: { sample: () => ({ path: "/api/workouts/describe", body: { text: "ran 5 km in 25 minutes", date: DAY } }) },
  listWorkouts: { sample: () => ({ path: "/api/workouts" }) },
  getWorkout: { resource: "workout", sample: (id) => ({ path: `/api/workouts/${id}` }) },
  editWorkout: { resource: "workout", sample: (id) => ({ path: `/api/workouts/${id}`, body: { summary: "Easy run" } }) },
  deleteWorkout: { resource: "workout", sample: (id) => ({ path: `/api/workouts/${id}` }) },
  importWorkout: { sample: () => ({ path: "/api/workouts/import", body: { source: "activity_app", externalId: uniqueTag("x"), activityType: "ride", startedAt: TS, durationS: 3600 } }) },
  askCoach: { sample: () => ({ path: "/api/agent", body: { messages: [{ role: "user", content: "is an apple a good snack?" }], date: DAY } }) },
  coachUsage: { sample: () => ({ path: "/api/coach/usage" }) },
  getDashboard: { sample: () => ({ path: `/api/dashboard?date=${DAY}` }) },
};

/** Written out here rather than imported, so that a change to the rule in the gateway is caught. */
const GRANTED_ONLY: readonly string[] = ["keys", "account"];

type Outcome = "allowed" | 401 | 403;
interface CredentialCase {
  name: string;
  headers: (op: Operation) => Record<string, string>;
  expect: (op: Operation) => Outcome;
}

let system: System;
let owner: Api;
let intruder: Api;
const keyFor = new Map<Scope, string>();
let fullKey: string;
let expiredKey: string;
let revokedKey: string;
let cookie: string;

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const otherScope = (scope: Scope): Scope => (scope === "dashboard:read" ? "weight:read" : "dashboard:read");

const credentials: CredentialCase[] = [
  { name: "no credential", headers: () => ({}), expect: () => 401 },
  { name: "session cookie", headers: () => ({ cookie, origin: new URL(system.url).origin }), expect: () => "allowed" },
  {
    name: "session cookie from a foreign origin",
    headers: () => ({ cookie, origin: "https://evil.example" }),
    expect: (op) => (op.method === "GET" ? "allowed" : 403),
  },
  { name: "API key with the scope", headers: (op) => bearer(keyFor.get(op.scope)!), expect: () => "allowed" },
  { name: "API key without the scope", headers: (op) => bearer(keyFor.get(otherScope(op.scope))!), expect: () => 403 },
  { name: "API key without scopes", headers: () => bearer(fullKey), expect: (op) => (GRANTED_ONLY.includes(op.scope) ? 403 : "allowed") },
  { name: "expired API key", headers: () => bearer(expiredKey), expect: () => 401 },
  { name: "revoked API key", headers: () => bearer(revokedKey), expect: () => 401 },
];

/** The stored form of the key in $1: SHA-256, base64url without padding. */
const STORED_KEY = "translate(rtrim(encode(sha256(convert_to($1, 'UTF8')), 'base64'), '='), '+/', '-_')";
const identityRows = async (text: string, values: unknown[]) => {
  const db = new pg.Client({ connectionString: system.env.DATABASE_URL, options: "-c search_path=identity" });
  await db.connect();
  try {
    return (await db.query(text, values)).rows;
  } finally {
    await db.end();
  }
};
const identitySql = async (text: string, values: unknown[]) => void (await identityRows(text, values));

beforeAll(async () => {
  system = await startSystem({
    databaseUrl: inject("databaseUrl"),
    natsUrl: inject("natsUrl"),
    // The matrix makes a few hundred requests and refusals a minute from one address: limits are another test's.
    env: { RATE_LIMIT_PER_MINUTE: "100000", REFUSED_LIMIT_PER_MINUTE: "100000" },
  });
  const email = `${uniqueTag("owner")}@example.com`;
  const issue = async (options: { scopes?: string[]; expiresInSeconds?: number } = {}) => (await system.key(email, options)).key;
  fullKey = await issue();
  owner = client(system.url, fullKey);
  intruder = client(system.url, (await system.account()).key);
  for (const scope of scopes) keyFor.set(scope, await issue({ scopes: [scope] }));
  expiredKey = await issue({ expiresInSeconds: 86_400 });
  await identitySql(`UPDATE api_key SET expires_at = now() - interval '1 second' WHERE key = ${STORED_KEY}`, [expiredKey]);
  revokedKey = await issue();
  await identitySql(`DELETE FROM api_key WHERE key = ${STORED_KEY}`, [revokedKey]);
  cookie = await signIn(system.url, email);
}, 120_000);
afterAll(() => system?.stop());

const send = async (op: Operation, headers: Record<string, string>) => {
  const { resource, sample } = samples[op.id]!;
  const id = resource ? await resources[resource].create(owner) : "";
  const { path, body } = sample(id);
  const api = client(system.url);
  switch (op.method) {
    case "GET":
      return api.get(path, headers);
    case "DELETE":
      return api.delete(path, headers);
    default:
      return api[op.method.toLowerCase() as "post" | "put" | "patch"](path, body, headers);
  }
};

describe("the access matrix", () => {
  it("has a sample request for every operation in the contracts", () => {
    expect(operationList.map((op) => op.id).filter((id) => !samples[id])).toEqual([]);
  });

  it("starts from keys that work: the refusals below are the expiry's and the revocation's", async () => {
    expect((await client(system.url, fullKey).get("/api/targets")).status).toBe(200);
    const [expired] = await identityRows(`SELECT expires_at < now() AS past FROM api_key WHERE key = ${STORED_KEY}`, [expiredKey]);
    expect(expired).toEqual({ past: true });
    expect(await identityRows(`SELECT 1 FROM api_key WHERE key = ${STORED_KEY}`, [revokedKey])).toEqual([]);
  });

  for (const credential of credentials) {
    it.each(operationList.map((op) => [`${op.method} ${op.path}`, op] as const))(`${credential.name}: %s`, async (_, op) => {
      const response = await send(op, credential.headers(op));
      const outcome = credential.expect(op);
      if (outcome === "allowed") {
        expect(response.status, JSON.stringify(response.body)).toBeLessThan(300);
        return;
      }
      expect(response.status, JSON.stringify(response.body)).toBe(outcome);
      expect(typeof response.body.error).toBe("string");
      const challenge = response.headers.get("www-authenticate");
      if (outcome === 401) expect(challenge).toMatch(/^Bearer /);
      else if (credential.name.includes("foreign origin")) expect(challenge).toBeNull();
      else expect(challenge).toBe(`Bearer error="insufficient_scope", scope="${op.scope}"`);
    });
  }
});

describe("another account's ids", () => {
  const byId = operationList.filter((op) => op.path.includes(":id"));

  it("are covered for every operation that takes one", () => {
    expect(byId.map((op) => op.id).filter((id) => !samples[id]?.resource)).toEqual([]);
  });

  it.each(byId.map((op) => [`${op.method} ${op.path}`, op] as const))("answer 404 and change nothing: %s", async (_, op) => {
    const { resource, sample } = samples[op.id]!;
    const id = await resources[resource!].create(owner);
    const before = await resources[resource!].read(owner, id);
    expect(before).toBeDefined();
    const { path, body } = sample(id);
    const method = op.method.toLowerCase() as "get" | "delete" | "post" | "put" | "patch";
    const response = method === "get" || method === "delete" ? await intruder[method](path) : await intruder[method](path, body);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: expect.any(String) });
    expect(await resources[resource!].read(owner, id)).toEqual(before);
  });
});
