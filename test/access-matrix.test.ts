// Every operation of the contracts × every kind of credential: the status, the envelope and WWW-Authenticate.
// Generated from the operations table, so an operation is covered the day it is added (it needs a sample
// request below, or this file fails naming it).
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { operationList, type Operation, type Scope } from "@fit/contracts";
import { uniqueTag } from "@fit/testing";
import { client } from "./support/http.ts";
import { connectAgent } from "./support/oauth-agent.ts";
import { CLEAN, consolePhoto, labelPhoto } from "./support/photo-corpus.ts";
import { NUTELLA, startOpenFoodFacts, type OpenFoodFactsStandIn } from "./support/open-food-facts.ts";
import { signIn } from "./support/sign-in.ts";
import { startSystem, type System } from "./support/system.ts";
import { waitFor } from "./support/wait.ts";

type Api = ReturnType<typeof client>;
interface Sample {
  path: string;
  body?: unknown;
  /** A raw body's type; JSON without it. */
  contentType?: string;
}

const DAY = "2026-03-02";
const SNACK_DAY = "2026-03-01";
const TS = Date.parse(`${DAY}T07:00:00Z`);
const created = async (response: Promise<{ status: number; body: { id?: string; workout?: { id?: string } } }>) => {
  const { status, body } = await response;
  const id = body.id ?? body.workout?.id;
  if (status !== 200 || !id) throw new Error(`creating a resource failed: ${status} ${JSON.stringify(body)}`);
  return id;
};

const CONSOLE_PHOTO = await consolePhoto({ kind: "treadmill", durationS: 1500, distanceKm: 4.2, kcal: 300, avgHr: 140 }, { font: "DejaVu Sans Mono", sizePt: 26, degradation: CLEAN, seed: 1 });
const LABEL_PHOTO = await labelPhoto({ layout: "us", servingG: 30, kcal: 120, proteinG: 5 }, { font: "DejaVu Sans", sizePt: 24, degradation: CLEAN, seed: 2 });
const IMPORT_FILE = `Date,"Weight (kg)"\n${DAY} 07:00:00,80.2\n`;
const RECIPE = { name: "banana bowl", servings: 2, ingredients: [{ foodId: "usda:173944", portion: { grams: 240 } }] };

/** The account whose data the matrix acts on, through each of its credentials. */
interface Owner {
  email: string;
  /** Its full-access key. */
  api: Api;
  /** Its signed-in session (cookie and trusted Origin). */
  session: Api;
}

/** Things with ids: how the owner makes one, and reads it back (to see that nobody else changed it). */
const resources = {
  weight: {
    create: (o: Owner) => created(o.api.post("/api/weight", { weightKg: 80, note: "mine", ts: TS })),
    read: async (o: Owner, id: string) => (await o.api.get("/api/weight?limit=200")).body.items.find((w: { id: string }) => w.id === id),
  },
  measurement: {
    create: (o: Owner) => created(o.api.post("/api/measurements", { site: "waist", valueCm: 82, ts: TS })),
    read: async (o: Owner, id: string) => (await o.api.get("/api/measurements?limit=200")).body.items.find((m: { id: string }) => m.id === id),
  },
  foodItem: {
    create: (o: Owner) => created(o.api.post("/api/nutrition/items", { date: DAY, name: "oats", kcal: 380, proteinG: 13 })),
    read: async (o: Owner, id: string) => (await o.api.get(`/api/nutrition/items?date=${DAY}`)).body.find((i: { id: string }) => i.id === id),
  },
  customFood: {
    create: (o: Owner) => created(o.api.post("/api/custom-foods", { name: "skyr", per: "100g", kcal: 63, proteinG: 11 })),
    read: async (o: Owner, id: string) => (await o.api.get(`/api/custom-foods/${id}`)).body,
  },
  recipe: {
    create: (o: Owner) => created(o.api.post("/api/recipes", RECIPE)),
    read: async (o: Owner, id: string) => (await o.api.get(`/api/recipes/${id}`)).body,
  },
  /** A snack on the day before DAY, for a copy to log again (copies land on another day, so it stays small). */
  snack: {
    create: (o: Owner) => created(o.api.post("/api/nutrition/items", { date: SNACK_DAY, meal: "snack", name: "apple", kcal: 95, proteinG: 0.5 })),
    read: async (o: Owner, id: string) => (await o.api.get(`/api/nutrition/items?date=${SNACK_DAY}`)).body.find((i: { id: string }) => i.id === id),
  },
  workout: {
    create: (o: Owner) => created(o.api.post("/api/workouts/import", { source: "watch_device", externalId: uniqueTag("w"), activityType: "run", startedAt: TS, durationS: 1800 })),
    read: async (o: Owner, id: string) => (await o.api.get(`/api/workouts/${id}`)).body,
  },
  /** A finished import of a one-row file (the same reading each time: skipped after the first). */
  import: {
    create: async (o: Owner) => {
      const { status, body } = await o.api.post("/api/imports", { text: IMPORT_FILE });
      if (status !== 202) throw new Error(`starting an import failed: ${status} ${JSON.stringify(body)}`);
      return waitFor("the import to finish", async () => ((await o.api.get(`/api/imports/${body.id}`)).body.state === "done" ? body.id as string : undefined));
    },
    read: async (o: Owner, id: string) => (await o.api.get(`/api/imports/${id}`)).body,
  },
  apiKey: {
    create: (o: Owner) => created(o.session.post("/api/keys", { name: "made to be revoked" })),
    read: async (o: Owner, id: string) => (await o.session.get("/api/keys")).body.find((k: { id: string }) => k.id === id),
  },
  session: {
    /** Another device signing in: its session's id, read through that session itself. */
    create: async (o: Owner) => {
      const other = sessionClient(await signIn(system.url, o.email));
      return (await other.get("/api/sessions")).body.find((x: { current: boolean }) => x.current).id as string;
    },
    read: async (o: Owner, id: string) => (await o.session.get("/api/sessions")).body.find((x: { id: string }) => x.id === id),
  },
  connectedApp: {
    /** An agent the owner lets in: its client id. */
    create: async (o: Owner) => (await connectAgent(system.url, "weight:read", { email: o.email })).client.client_id,
    read: async (o: Owner, id: string) => (await o.session.get("/api/connected-apps")).body.items.find((x: { clientId: string }) => x.clientId === id),
  },
};
type Resource = keyof typeof resources;

/** A request each operation accepts from a credential allowed to make it; `resource` is made first by the owner. */
const samples: Record<string, { resource?: Resource; sample: (id: string) => Sample }> = {
  logWeight: { sample: () => ({ path: "/api/weight", body: { weightKg: 81.4 } }) },
  listWeights: { sample: () => ({ path: "/api/weight" }) },
  editWeightNote: { resource: "weight", sample: (id) => ({ path: `/api/weight/${id}`, body: { note: "edited" } }) },
  deleteWeight: { resource: "weight", sample: (id) => ({ path: `/api/weight/${id}` }) },
  logMeasurement: { sample: () => ({ path: "/api/measurements", body: { site: "neck", valueCm: 38 } }) },
  listMeasurements: { sample: () => ({ path: "/api/measurements" }) },
  deleteMeasurement: { resource: "measurement", sample: (id) => ({ path: `/api/measurements/${id}` }) },
  getTargets: { sample: () => ({ path: "/api/targets" }) },
  // Keeps the goal weight, which adoptSuggestedTargets needs.
  putTargets: { sample: () => ({ path: "/api/targets", body: { goalWeightKg: 75, dailyKcalTarget: 2200, proteinTargetG: 150 } }) },
  listDailyTotals: { sample: () => ({ path: "/api/nutrition" }) },
  logFoodItem: { sample: () => ({ path: "/api/nutrition/items", body: { date: DAY, name: "apple", kcal: 95, proteinG: 0.5 } }) },
  listFoodItems: { sample: () => ({ path: `/api/nutrition/items?date=${DAY}` }) },
  editFoodItem: { resource: "foodItem", sample: (id) => ({ path: `/api/nutrition/items/${id}`, body: { kcal: 400 } }) },
  deleteFoodItem: { resource: "foodItem", sample: (id) => ({ path: `/api/nutrition/items/${id}` }) },
  getNutritionDay: { sample: () => ({ path: `/api/nutrition/days/${DAY}` }) },
  markNutritionDay: { sample: () => ({ path: `/api/nutrition/days/${DAY}`, body: { mark: "complete" } }) },
  copyFoodItems: {
    resource: "snack",
    sample: () => ({ path: "/api/nutrition/copy", body: { from: { date: SNACK_DAY, meal: "snack" }, to: { date: "2026-03-03" } } }),
  },
  searchFoods: { sample: () => ({ path: "/api/foods?q=banana" }) },
  listRecentFoods: { sample: () => ({ path: "/api/foods/recent" }) },
  getFood: { sample: () => ({ path: "/api/foods/usda:173944" }) },
  getFoodByBarcode: { sample: () => ({ path: `/api/foods/barcode/${NUTELLA.code}` }) },
  listCustomFoods: { sample: () => ({ path: "/api/custom-foods" }) },
  createCustomFood: { sample: () => ({ path: "/api/custom-foods", body: { name: "rye bread", per: "serving", servingG: 35, kcal: 90, proteinG: 3 } }) },
  getCustomFood: { resource: "customFood", sample: (id) => ({ path: `/api/custom-foods/${id}` }) },
  editCustomFood: { resource: "customFood", sample: (id) => ({ path: `/api/custom-foods/${id}`, body: { kcal: 70 } }) },
  deleteCustomFood: { resource: "customFood", sample: (id) => ({ path: `/api/custom-foods/${id}` }) },
  listRecipes: { sample: () => ({ path: "/api/recipes" }) },
  createRecipe: { sample: () => ({ path: "/api/recipes", body: RECIPE }) },
  getRecipe: { resource: "recipe", sample: (id) => ({ path: `/api/recipes/${id}` }) },
  replaceRecipe: { resource: "recipe", sample: (id) => ({ path: `/api/recipes/${id}`, body: { ...RECIPE, servings: 3 } }) },
  deleteRecipe: { resource: "recipe", sample: (id) => ({ path: `/api/recipes/${id}` }) },
  describeFood: { sample: () => ({ path: "/api/nutrition/describe", body: { text: "two eggs", date: DAY } }) },
  estimateFood: { sample: () => ({ path: "/api/nutrition/estimate", body: { text: "two eggs" } }) },
  describeWorkout: { sample: () => ({ path: "/api/workouts/describe", body: { text: "ran 5 km in 25 minutes", date: DAY } }) },
  listWorkouts: { sample: () => ({ path: "/api/workouts" }) },
  getWorkout: { resource: "workout", sample: (id) => ({ path: `/api/workouts/${id}` }) },
  getWorkoutRoute: { resource: "workout", sample: (id) => ({ path: `/api/workouts/${id}/route` }) },
  editWorkout: { resource: "workout", sample: (id) => ({ path: `/api/workouts/${id}`, body: { summary: "Easy run" } }) },
  deleteWorkout: { resource: "workout", sample: (id) => ({ path: `/api/workouts/${id}` }) },
  logWorkoutPhoto: { sample: () => ({ path: `/api/workouts/photo?date=${DAY}`, body: CONSOLE_PHOTO, contentType: "image/jpeg" }) },
  logFoodPhoto: { sample: () => ({ path: `/api/nutrition/photo?date=${DAY}`, body: LABEL_PHOTO, contentType: "image/jpeg" }) },
  previewWorkoutPhoto: { sample: () => ({ path: `/api/workouts/photo/preview?date=${DAY}`, body: CONSOLE_PHOTO, contentType: "image/jpeg" }) },
  previewFoodPhoto: { sample: () => ({ path: "/api/nutrition/photo/preview", body: LABEL_PHOTO, contentType: "image/jpeg" }) },
  createWorkout: { sample: () => ({ path: "/api/workouts", body: { activityType: "run", startedAt: TS, durationS: 1800, description: "Run from a photo" } }) },
  importWorkout: { sample: () => ({ path: "/api/workouts/import", body: { source: "activity_app", externalId: uniqueTag("x"), activityType: "ride", startedAt: TS, durationS: 3600 } }) },
  getProfile: { sample: () => ({ path: "/api/profile" }) },
  getInsights: { sample: () => ({ path: `/api/insights?date=${DAY}` }) },
  adoptSuggestedTargets: { sample: () => ({ path: "/api/insights/adopt-targets" }) },
  putProfile: { sample: () => ({ path: "/api/profile", body: { heightCm: 180, units: "imperial", timeZone: "Europe/Berlin" } }) },
  startImport: { sample: () => ({ path: "/api/imports", body: { text: IMPORT_FILE } }) },
  listImports: { sample: () => ({ path: "/api/imports" }) },
  getImport: { resource: "import", sample: (id) => ({ path: `/api/imports/${id}` }) },
  deleteImport: { resource: "import", sample: (id) => ({ path: `/api/imports/${id}` }) },
  askCoach: { sample: () => ({ path: "/api/agent", body: { messages: [{ role: "user", content: "is an apple a good snack?" }], date: DAY } }) },
  coachUsage: { sample: () => ({ path: "/api/coach/usage" }) },
  getDashboard: { sample: () => ({ path: `/api/dashboard?date=${DAY}` }) },
  // Asks only for what a key holding just `keys` holds itself, so no allowed credential is refused for escalation.
  createApiKey: { sample: () => ({ path: "/api/keys", body: { name: "from the matrix", scopes: ["keys"] } }) },
  listApiKeys: { sample: () => ({ path: "/api/keys" }) },
  revokeApiKey: { resource: "apiKey", sample: (id) => ({ path: `/api/keys/${id}` }) },
  listSessions: { sample: () => ({ path: "/api/sessions" }) },
  revokeSession: { resource: "session", sample: (id) => ({ path: `/api/sessions/${id}` }) },
  revokeOtherSessions: { sample: () => ({ path: "/api/sessions/revoke-others" }) },
  listConnectedApps: { sample: () => ({ path: "/api/connected-apps" }) },
  revokeConnectedApp: { resource: "connectedApp", sample: (id) => ({ path: `/api/connected-apps/${id}` }) },
  ingestWeight: { sample: () => ({ path: "/api/ingest/weight", body: { email: owner.email, weightKg: 79.9, externalId: uniqueTag("scale") } }) },
  exportAccount: { sample: () => ({ path: "/api/account/export" }) },
  // Sent for a fresh account of its own (see send), so the owner outlives the matrix.
  deleteAccount: { sample: () => ({ path: "/api/account" }) },
};

/** Written out here rather than imported, so that a change to the rule in the gateway is caught. */
const GRANTED_ONLY: readonly string[] = ["keys", "account"];

/** Allowed, or refused with this status; `scope` when the refusal is the scope's (and says so in WWW-Authenticate). */
type Outcome = "allowed" | { status: 401 } | { status: 403; scope?: true };
const UNAUTHENTICATED = { status: 401 } as const;
const FORBIDDEN = { status: 403 } as const;
const LACKS_SCOPE = { status: 403, scope: true } as const;

/** One account's credentials of every kind, each made the first time a case asks for it. */
const holderOf = (email: string) => {
  const made = new Map<string, Promise<string>>();
  const once = (name: string, make: () => Promise<string>) => {
    if (!made.has(name)) made.set(name, make());
    return made.get(name)!;
  };
  const issue = async (options: { scopes?: string[]; expiresInSeconds?: number } = {}) => (await system.key(email, options)).key;
  return {
    email,
    cookie: () => once("cookie", () => signIn(system.url, email)),
    key: (scope: Scope | null) => once(`key ${scope}`, () => issue(scope ? { scopes: [scope] } : {})),
    expiredKey: () => once("expired", async () => {
      const key = await issue({ expiresInSeconds: 86_400 });
      await identitySql(`UPDATE api_key SET expires_at = now() - interval '1 second' WHERE key = ${STORED_KEY}`, [key]);
      return key;
    }),
    revokedKey: () => once("revoked", async () => {
      const key = await issue();
      await identitySql(`DELETE FROM api_key WHERE key = ${STORED_KEY}`, [key]);
      return key;
    }),
    /** An agent's access token through the whole OAuth flow (an agent can hold no granted-only scope). */
    agentToken: (scope: Scope) => once(`agent ${scope}`, async () => (await connectAgent(system.url, scope, { email })).tokens.access_token),
    /** A token this service's keys signed for another deployment's MCP URL: a second gateway's, on its own address. */
    foreignToken: () => once("foreign", async () => (await connectAgent(await system.replica(), "dashboard:read", { email })).tokens.access_token),
  };
};
type Holder = ReturnType<typeof holderOf>;

interface CredentialCase {
  name: string;
  headers: (op: Operation, holder: Holder) => Promise<Record<string, string>>;
  expect: (op: Operation) => Outcome;
}

const INGEST_TOKEN = `ingest-${"t".repeat(40)}`;
let system: System;
let owner: Owner;
let ownerHolder: Holder;
let intruder: Api;

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const sessionClient = (sessionCookie: string) => {
  const api = client(system.url);
  const headers = { cookie: sessionCookie, origin: new URL(system.url).origin };
  return {
    get: (path: string) => api.get(path, headers),
    post: (path: string, body?: unknown) => api.post(path, body, headers),
    put: (path: string, body?: unknown) => api.put(path, body, headers),
    patch: (path: string, body?: unknown) => api.patch(path, body, headers),
    delete: (path: string) => api.delete(path, headers),
  };
};
const otherScope = (scope: Scope): Scope => (scope === "dashboard:read" ? "weight:read" : "dashboard:read");
const ingestOnly = (op: Operation) => op.credential === "ingest-token";
const sessionOnly = (op: Operation) => op.credential === "session";
const grantedOnly = (op: Operation) => GRANTED_ONLY.includes(op.scope);

/** Every credential but the ingest token is unknown to the ingest route (401), and refused on session-only ones. */
const bearerCase = (name: string, headers: CredentialCase["headers"], otherwise: (op: Operation) => Outcome): CredentialCase => ({
  name,
  headers,
  expect: (op) => (ingestOnly(op) ? UNAUTHENTICATED : sessionOnly(op) ? FORBIDDEN : otherwise(op)),
});

const credentials: CredentialCase[] = [
  { name: "no credential", headers: async () => ({}), expect: () => UNAUTHENTICATED },
  {
    name: "session cookie",
    headers: async (_, holder) => ({ cookie: await holder.cookie(), origin: new URL(system.url).origin }),
    expect: (op) => (ingestOnly(op) ? UNAUTHENTICATED : "allowed"),
  },
  {
    name: "session cookie from a foreign origin",
    headers: async (_, holder) => ({ cookie: await holder.cookie(), origin: "https://evil.example" }),
    expect: (op) => (ingestOnly(op) ? UNAUTHENTICATED : op.method === "GET" ? "allowed" : FORBIDDEN),
  },
  bearerCase("API key with the scope", async (op, holder) => bearer(await holder.key(op.scope)), () => "allowed"),
  bearerCase("API key without the scope", async (op, holder) => bearer(await holder.key(otherScope(op.scope))), () => LACKS_SCOPE),
  bearerCase("API key without scopes", async (_, holder) => bearer(await holder.key(null)), (op) => (grantedOnly(op) ? LACKS_SCOPE : "allowed")),
  { name: "expired API key", headers: async (_, holder) => bearer(await holder.expiredKey()), expect: () => UNAUTHENTICATED },
  { name: "revoked API key", headers: async (_, holder) => bearer(await holder.revokedKey()), expect: () => UNAUTHENTICATED },
  // An agent cannot even ask for a granted-only scope: for those operations its token holds another.
  bearerCase(
    "OAuth token with the scope",
    async (op, holder) => bearer(await holder.agentToken(grantedOnly(op) ? "dashboard:read" : op.scope)),
    (op) => (grantedOnly(op) ? LACKS_SCOPE : "allowed"),
  ),
  bearerCase("OAuth token without the scope", async (op, holder) => bearer(await holder.agentToken(otherScope(op.scope))), () => LACKS_SCOPE),
  { name: "OAuth token for another audience", headers: async (_, holder) => bearer(await holder.foreignToken()), expect: () => UNAUTHENTICATED },
  { name: "scale ingest token", headers: async () => bearer(INGEST_TOKEN), expect: (op) => (ingestOnly(op) ? "allowed" : FORBIDDEN) },
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

let openFoodFacts: OpenFoodFactsStandIn;

beforeAll(async () => {
  openFoodFacts = await startOpenFoodFacts();
  system = await startSystem({
    databaseUrl: inject("databaseUrl"),
    natsUrl: inject("natsUrl"),
    // The matrix makes hundreds of requests, refusals and sign-ins a minute from one address: limits are another test's.
    env: {
      RATE_LIMIT_PER_MINUTE: "100000", REFUSED_LIMIT_PER_MINUTE: "100000", SIGN_IN_LIMIT_PER_EMAIL: "1000", SIGN_IN_LIMIT_PER_ADDRESS: "1000",
      REGISTRATION_LIMIT_PER_ADDRESS: "1000", EXCHANGE_LIMIT_PER_ADDRESS: "1000", INGEST_TOKEN, FOOD_BARCODE_URL: openFoodFacts.url,
    },
  });
  ownerHolder = holderOf(`${uniqueTag("owner")}@example.com`);
  owner = { email: ownerHolder.email, api: client(system.url, await ownerHolder.key(null)), session: sessionClient(await ownerHolder.cookie()) };
  // A goal and a weigh-in that has reached insights: what a suggestion to adopt needs.
  await owner.api.put("/api/targets", { goalWeightKg: 75 });
  await owner.api.post("/api/weight", { weightKg: 81.4 });
  await waitFor("the weigh-in to reach insights", async () => ((await owner.api.get("/api/insights")).body.suggestedTargets ? true : undefined));
  const stranger = await system.account();
  intruder = sessionClient(await signIn(system.url, stranger.email));
}, 120_000);
afterAll(async () => {
  await system?.stop();
  await openFoodFacts?.close();
});

/** The operation's sample, sent with these headers. Deleting an account deletes a fresh one, never the owner. */
const send = async (op: Operation, credential: CredentialCase) => {
  const holder = op.id === "deleteAccount" ? holderOf(`${uniqueTag("doomed")}@example.com`) : ownerHolder;
  const headers = await credential.headers(op, holder);
  const { resource, sample } = samples[op.id]!;
  const id = resource ? await resources[resource].create(owner) : "";
  const { path, body, contentType } = sample(id);
  const api = client(system.url);
  switch (op.method) {
    case "GET":
      return api.get(path, headers);
    case "DELETE":
      return api.delete(path, headers);
    default:
      return api[op.method.toLowerCase() as "post" | "put" | "patch"](path, body, contentType ? { ...headers, "content-type": contentType } : headers);
  }
};

describe("the access matrix", () => {
  it("has a sample request for every operation in the contracts", () => {
    expect(operationList.map((op) => op.id).filter((id) => !samples[id])).toEqual([]);
  });

  it("starts from keys that work: the refusals below are the expiry's, the revocation's and the audience's", async () => {
    expect((await client(system.url, await ownerHolder.key(null)).get("/api/targets")).status).toBe(200);
    expect((await client(system.url, await ownerHolder.agentToken("targets:read")).get("/api/targets")).status).toBe(200);
    const [expired] = await identityRows(`SELECT expires_at < now() AS past FROM api_key WHERE key = ${STORED_KEY}`, [await ownerHolder.expiredKey()]);
    expect(expired).toEqual({ past: true });
    expect(await identityRows(`SELECT 1 FROM api_key WHERE key = ${STORED_KEY}`, [await ownerHolder.revokedKey()])).toEqual([]);
    const [, payload] = (await ownerHolder.foreignToken()).split(".");
    const claims = JSON.parse(Buffer.from(payload!, "base64url").toString("utf8")) as { aud: unknown; sub: unknown };
    expect(claims.aud).not.toBe(`${system.url}/mcp`);
    expect(claims.sub).toBe((await identityRows('SELECT id::text AS id FROM "user" WHERE email = $1', [ownerHolder.email]))[0]?.id);
  });

  for (const credential of credentials) {
    it.each(operationList.map((op) => [`${op.method} ${op.path}`, op] as const))(`${credential.name}: %s`, async (_, op) => {
      const response = await send(op, credential);
      const outcome = credential.expect(op);
      if (outcome === "allowed") {
        expect(response.status, JSON.stringify(response.body)).toBeLessThan(300);
        return;
      }
      expect(response.status, JSON.stringify(response.body)).toBe(outcome.status);
      expect(typeof response.body.error).toBe("string");
      const challenge = response.headers.get("www-authenticate");
      if (outcome.status === 401) expect(challenge).toMatch(/^Bearer /);
      else if ("scope" in outcome) expect(challenge).toBe(`Bearer error="insufficient_scope", scope="${op.scope}"`);
      else expect(challenge).toBeNull();
    });
  }
});

/**
 * Operations whose path names what every account shares (the food database) or the caller's own day (a date, which
 * each account has of its own): no account's ids to guard.
 */
const SHARED_IDS: readonly string[] = ["getFood", "getFoodByBarcode", "getNutritionDay", "markNutritionDay"];

describe("another account's ids", () => {
  const byId = operationList.filter((op) => op.path.includes("/:") && !SHARED_IDS.includes(op.id));

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
