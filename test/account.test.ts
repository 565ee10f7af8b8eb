// Your account, yours to take away: the export streams everything as one document, and deletion removes the
// account at once and its data in every service (docs/decisions/0025-account-export-and-deletion.md).
import { connect } from "nats";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { accountExportParts, AccountExport, type ExportPart } from "@fit/contracts";
import { adminSocketPath, requestAccountKey } from "@fit/gateway";
import { findEverywhere } from "./support/account-scan.ts";
import { client } from "./support/http.ts";
import { connectJetStream } from "./support/jetstream-probe.ts";
import { connectAgent } from "./support/oauth-agent.ts";
import { signIn } from "./support/sign-in.ts";
import { startSystem, type System } from "./support/system.ts";
import { waitFor } from "./support/wait.ts";

const services = ["body-metrics", "nutrition", "workouts", "coach", "insights", "imports"];
const BULK_FOOD_ITEMS = 10_000;

/** A key for an existing account, with these scopes. */
const keyFor = async (system: System, email: string, scopes: string[]) => {
  const issued = await requestAccountKey(adminSocketPath(system.env.DATA_DIR ?? ""), email, { scopes });
  if (!issued) throw new Error("the gateway's admin socket did not answer");
  return issued.key;
};

/** Something in every service: weigh-ins, a measurement, targets, food items (so daily totals), a day mark, an own food and a recipe, a workout, a coach call, an import. */
const seed = async (system: System, key: string) => {
  const api = client(system.url, key);
  const writes = [
    await api.post("/api/weight", { weightKg: 81.4, note: "after run" }),
    await api.post("/api/weight", { weightKg: 81.1 }),
    await api.post("/api/measurements", { site: "waist", valueCm: 84 }),
    await api.put("/api/targets", { goalWeightKg: 75, dailyKcalTarget: 2200, proteinTargetG: 150 }),
    await api.put("/api/profile", { heightCm: 178, units: "imperial", timeZone: "Europe/London" }),
    await api.post("/api/nutrition/items", { date: "2026-11-20", name: "oats", kcal: 380, proteinG: 13 }),
    await api.post("/api/nutrition/items", { date: "2026-11-21", name: "eggs", kcal: 150, proteinG: 12 }),
    await api.put("/api/nutrition/days/2026-11-19", { mark: "complete" }),
    await api.post("/api/custom-foods", { name: "rye bread", per: "serving", servingG: 35, kcal: 90, proteinG: 3 }),
    await api.post("/api/recipes", { name: "banana bowl", servings: 2, ingredients: [{ foodId: "usda:173944", portion: { grams: 240 } }] }),
    await api.post("/api/workouts/import", {
      source: "activity_app", externalId: `run-${key.slice(-6)}`, activityType: "run", startedAt: Date.parse("2026-11-18T07:00:00Z"),
      durationS: 1800, summary: "Morning 5k", description: "Easy run",
    }),
    await api.post("/api/agent", { messages: [{ role: "user", content: "is a banana a good snack?" }] }),
  ];
  for (const write of writes) expect(write.status, JSON.stringify(write.body)).toBeLessThan(300);
  const imported = await api.post("/api/imports", { text: 'Date,"Weight (kg)"\n2026-11-19 07:00:00,81.9\n' });
  expect(imported.status, JSON.stringify(imported.body)).toBe(202);
  await waitFor("the import", async () => ((await api.get(`/api/imports/${imported.body.id}`)).body.state === "done" ? true : undefined));
  // Daily totals are a projection: wait until both days are rolled up, so there is a row of each kind to find.
  await waitFor("the daily totals", async () => ((await api.get("/api/nutrition")).body as unknown[]).length === 2 || undefined);
};

const sql = async (databaseUrl: string, text: string, values: unknown[] = []) => {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    return (await db.query(text, values)).rows as Record<string, unknown>[];
  } finally {
    await db.end();
  }
};

describe("account on PostgreSQL and NATS", () => {
  let system: System;
  let databaseUrl: string;

  beforeAll(async () => {
    system = await startSystem({ databaseUrl: inject("databaseUrl"), natsUrl: inject("natsUrl") });
    databaseUrl = system.env.DATABASE_URL ?? "";
  });
  afterAll(() => system?.stop());

  it("needs the account scope: a full-access key may neither export nor delete", async () => {
    const api = client(system.url, (await system.account()).key);
    for (const response of [await api.get("/api/account/export"), await api.delete("/api/account")]) {
      expect(response.status).toBe(403);
      expect(response.headers.get("www-authenticate")).toContain('scope="account"');
    }
  });

  it("refuses deletion by a session signed in more than 10 minutes ago: sign in again", async () => {
    const { email } = await system.account();
    const cookie = await signIn(system.url, email);
    await sql(databaseUrl, `UPDATE identity.session s SET created_at = now() - interval '11 minutes'
      FROM identity."user" u WHERE u.id = s.user_id AND u.email = $1`, [email]);
    const refused = await client(system.url).delete("/api/account", { cookie });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatch(/sign in again/);
    expect((await client(system.url).get("/api/account/export", { cookie })).status).toBe(200);
  });

  it("streams the export: one document, every row counted, the first bytes before the last service is asked", async () => {
    const { email, key } = await system.account();
    await seed(system, key);
    const owner = (await sql(databaseUrl, `SELECT id::text AS id FROM identity."user" WHERE email = $1`, [email]))[0]?.id;
    await sql(databaseUrl, `INSERT INTO nutrition.food_item (id, account_id, date, name, kcal, protein_g, updated_at)
      SELECT gen_random_uuid(), $1::uuid, '2026-10-01', 'rice ' || n, 200, 4, now() FROM generate_series(1, $2::int) AS n`,
    [owner, BULK_FOOD_ITEMS]);

    // The test's own view of the bus: when does the gateway ask for the last part?
    const namespace = system.env.NATS_NAMESPACE ?? "";
    const nc = await connect({ servers: inject("natsUrl") });
    let lastPartAskedAt = Infinity;
    const spy = nc.subscribe(`${namespace}.${accountExportParts.coachUsage.subject}`, { callback: () => { lastPartAskedAt = Math.min(lastPartAskedAt, Date.now()); } });
    await nc.flush();
    try {
      const response = await fetch(new URL("/api/account/export", system.url), { headers: { authorization: `Bearer ${await keyFor(system, email, ["account"])}` } });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-disposition")).toBe('attachment; filename="fitness-export.json"');
      const reader = response.body!.getReader();
      const chunks: Uint8Array[] = [];
      let firstByteAt = 0;
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        firstByteAt ||= Date.now();
        chunks.push(read.value);
      }
      expect(firstByteAt).toBeLessThan(lastPartAskedAt);
      expect(lastPartAskedAt).toBeLessThan(Infinity);

      const document = AccountExport.parse(JSON.parse(Buffer.concat(chunks).toString("utf8")));
      expect(document.account).toMatchObject({ id: owner, email });
      expect(document.apiKeys).toHaveLength(2);
      expect(JSON.stringify(document.apiKeys)).not.toContain(key);
      const counts = Object.fromEntries(Object.keys(accountExportParts).map((part) => [part, document[part as ExportPart].length]));
      expect(counts).toEqual({ weighIns: 3, measurements: 1, targets: 1, profile: 1, foodItems: BULK_FOOD_ITEMS + 2, dailyTotals: 2, dayMarks: 1, customFoods: 1, recipes: 1, workouts: 1, coachUsage: 1 });
      expect(new Set(document.foodItems.map((item) => item.id)).size).toBe(BULK_FOOD_ITEMS + 2);
    } finally {
      spy.unsubscribe();
      await nc.close();
    }
  });

  it("deletes the account everywhere: credentials 401 at once, every schema searched finds nothing, the other account untouched", async () => {
    const doomed = await system.account();
    const other = await system.account();
    await seed(system, doomed.key);
    await seed(system, other.key);
    const cookie = await signIn(system.url, doomed.email);
    const deleter = await keyFor(system, doomed.email, ["account"]);
    const agent = await connectAgent(system.url, "weight:read offline_access", { email: doomed.email });
    expect((await client(system.url, agent.tokens.access_token).get("/api/weight")).status).toBe(200);
    const otherBefore = await client(system.url, await keyFor(system, other.email, ["account"])).get("/api/account/export");
    expect((await findEverywhere(databaseUrl, doomed.accountId)).length).toBeGreaterThan(0);

    const deleted = await client(system.url, deleter).delete("/api/account");
    expect(deleted.status).toBe(202);
    expect(deleted.body).toEqual({ ok: true });
    for (const gone of [client(system.url, doomed.key), client(system.url, deleter)]) expect((await gone.get("/api/weight")).status).toBe(401);
    expect((await client(system.url).get("/api/weight", { cookie })).status).toBe(401);
    // An agent's access token is a JWT that would outlive the account if only its signature were checked.
    expect((await client(system.url, agent.tokens.access_token).get("/api/weight")).status).toBe(401);

    // Applied when every service's durable consumer has acknowledged every deletion in the stream.
    const js = await connectJetStream(inject("natsUrl"));
    try {
      await waitFor("every service to apply identity.account.deleted", async () => {
        for (const service of services) {
          const info = await js.consumer(`${system.env.NATS_NAMESPACE}_IDENTITY`, `${service}-account-deletion`);
          if (info.ack_floor.stream_seq < 1 || info.num_pending > 0 || info.num_ack_pending > 0) return undefined;
        }
        return true;
      });
    } finally {
      await js.close();
    }

    // The deletion event itself is the one record left (pruned with the outbox after OUTBOX_RETENTION_HOURS).
    expect(await findEverywhere(databaseUrl, doomed.accountId)).toEqual([{ table: "identity.outbox_event", column: "payload", rows: 1 }]);
    expect(await findEverywhere(databaseUrl, doomed.email)).toEqual([]);
    const otherAfter = await client(system.url, await keyFor(system, other.email, ["account"])).get("/api/account/export");
    const { exportedAt: _a, apiKeys: _k, ...before } = otherBefore.body as Record<string, unknown>;
    const { exportedAt: _b, apiKeys: keys, ...after } = otherAfter.body as Record<string, unknown>;
    expect(after).toEqual(before);
    expect(keys).toHaveLength(3);
  });
});

describe("account in the embedded mode (PGlite, in-process bus)", () => {
  let system: System;

  beforeAll(async () => {
    system = await startSystem({ embedded: true });
  });
  afterAll(() => system?.stop());

  it("deletes with a fresh session, and every service forgets the account", async () => {
    const doomed = await system.account();
    const other = await system.account();
    await seed(system, doomed.key);
    await seed(system, other.key);
    const cookie = await signIn(system.url, doomed.email);
    const bus = system.bus!;
    const rowsOf = async (accountId: string) => {
      const parts = Object.entries(accountExportParts);
      const pages = await Promise.all(parts.map(([, def]) => bus.request(def, { accountId, after: null, limit: 1 })));
      return pages.filter((page) => page.rows.length > 0).length;
    };
    expect(await rowsOf(doomed.accountId)).toBe(Object.keys(accountExportParts).length);

    const deleted = await client(system.url).delete("/api/account", { cookie, origin: new URL(system.url).origin });
    expect(deleted.status).toBe(202);
    expect((await client(system.url).get("/api/weight", { cookie })).status).toBe(401);
    expect((await client(system.url, doomed.key).get("/api/weight")).status).toBe(401);
    await waitFor("every service to forget the account", async () => ((await rowsOf(doomed.accountId)) === 0 ? true : undefined));
    expect(await rowsOf(other.accountId)).toBe(Object.keys(accountExportParts).length);
  });
});
