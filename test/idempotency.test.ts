import { randomUUID } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it, onTestFinished } from "vitest";
import { ASSERTION_HEADER, signAssertion } from "@fit/service-kit";
import { startNutritionRig } from "./support/nutrition-rig.ts";
import { client } from "./support/http.ts";
import { startSystem, type System } from "./support/system.ts";

/*
 * The Idempotency-Key header on every creating POST (docs/decisions/0062-idempotency-keys.md,
 * docs/security.md "A retried write is stored once"): the key is recorded in the write's own transaction, so a
 * retry gets the first answer even when the service died between its commit and its answer.
 */

const keyed = (key: string) => ({ "idempotency-key": `"${key}"` });

describe("a write retried with its Idempotency-Key while the service is killed", () => {
  // What is provoked exactly: two accounts log 60 food items each, 12 requests at a time, every item under a key
  // of its own, straight to the nutrition service as a process of its own (as the gateway forwards them); it is
  // killed with SIGKILL while requests are in flight (some committed, their answers lost with the connection),
  // and started again. Every request that got no answer or a 503 is sent again, same key and body, until one
  // answers. Not provoked here: the gateway in between (it forwards the header as it is and answers 503 for a
  // dead service: test/service-faults.test.ts).
  it("stores each intended write exactly once and answers every retry with that write", async () => {
    const rig = await startNutritionRig();
    const accounts = [randomUUID(), randomUUID()].map((accountId) => ({ accountId, email: `${accountId}@example.com` }));
    const writes = accounts.flatMap((account) =>
      Array.from({ length: 60 }, (_, i) => ({ account, key: randomUUID(), name: `item ${i} ${randomUUID().slice(0, 8)}`, kcal: 100 + i })),
    );
    const post = async (write: (typeof writes)[number]) => {
      const assertion = await signAssertion(rig.secret, { ...write.account, scopes: null });
      const response = await fetch(new URL("/api/nutrition/items", rig.url()), {
        method: "POST",
        headers: { [ASSERTION_HEADER]: assertion, "content-type": "application/json", ...keyed(write.key) },
        body: JSON.stringify({ date: "2026-06-01", name: write.name, kcal: write.kcal, proteinG: 1 }),
        signal: AbortSignal.timeout(15_000),
      });
      return { status: response.status, body: (await response.json()) as { id: string; error?: string } };
    };
    const answers = new Map<string, { id: string; failures: number[] }>();
    let killed = false;
    const send = async (write: (typeof writes)[number]) => {
      const failures: number[] = [];
      const deadline = Date.now() + 90_000;
      for (;;) {
        const answer = await post(write).catch(() => ({ status: 0, body: undefined }));
        if (answer.status === 200) {
          answers.set(write.key, { id: answer.body!.id, failures });
          return;
        }
        expect([0, 503], `only the outage may fail a write: ${JSON.stringify(answer.body)}`).toContain(answer.status);
        failures.push(answer.status);
        if (Date.now() > deadline) throw new Error(`${write.name} never answered: ${failures.join(", ")}`);
        await delay(100);
      }
    };
    const queue = [...writes];
    const worker = async () => {
      for (let write = queue.shift(); write; write = queue.shift()) {
        await send(write);
        // Slow enough that the kill lands while writes are in flight, not after they are all done.
        if (!killed) await delay(20);
      }
    };
    const load = Promise.all(Array.from({ length: 12 }, worker));
    await expect.poll(() => answers.size, { timeout: 30_000 }).toBeGreaterThan(30);
    await rig.killNutrition();
    killed = true;
    await rig.startNutrition();
    await load;

    // Read back through the service: every item of the day, per account.
    const stored = new Map<string, string[]>();
    for (const account of accounts) {
      const assertion = await signAssertion(rig.secret, { ...account, scopes: null });
      const items = (await (await fetch(new URL("/api/nutrition/items?date=2026-06-01", rig.url()), { headers: { [ASSERTION_HEADER]: assertion } })).json()) as { id: string; name: string }[];
      for (const item of items) stored.set(item.name, [...(stored.get(item.name) ?? []), item.id]);
    }
    const retried = [...answers.values()].filter((a) => a.failures.length > 0);
    console.log(
      `[idempotency] ${writes.length} writes, ${retried.length} retried (${retried.reduce((n, a) => n + a.failures.length, 0)} failed attempts); ` +
        `rows stored: ${[...stored.values()].flat().length}`,
    );
    expect(retried.length, "the kill failed some writes, which were retried").toBeGreaterThan(0);
    expect(writes.filter((w) => stored.get(w.name)?.length !== 1).map((w) => `${w.name}: ${stored.get(w.name)?.length ?? 0} rows`), "writes not stored exactly once").toEqual([]);
    expect(writes.filter((w) => answers.get(w.key)?.id !== stored.get(w.name)?.[0]).map((w) => w.name), "answers that name another row").toEqual([]);
  }, 180_000);
});

describe("the Idempotency-Key header", () => {
  let system: System;
  let sql: pg.Client;
  beforeAll(async () => {
    system = await startSystem({ databaseUrl: inject("databaseUrl"), natsUrl: inject("natsUrl") });
    sql = new pg.Client({ connectionString: system.env["DATABASE_URL"] });
    await sql.connect();
  }, 120_000);
  afterAll(async () => {
    await sql?.end();
    await system?.stop();
  });

  const count = async (table: string, accountId: string) =>
    (await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE account_id = $1::uuid`, [accountId])).rows[0]!.n;
  const person = async () => {
    const { key, accountId } = await system.account();
    return { api: client(system.url, key), accountId };
  };

  // Every operation that creates something, with a body and the table its row lands in.
  const creating = [
    { path: "/api/weight", body: { weightKg: 80.5 }, other: { weightKg: 81 }, table: "body_metrics.weight_reading" },
    { path: "/api/measurements", body: { site: "waist", valueCm: 82 }, other: { site: "waist", valueCm: 83 }, table: "body_metrics.measurement" },
    { path: "/api/nutrition/items", body: { date: "2026-06-01", name: "apple", kcal: 95, proteinG: 0.5 }, other: { date: "2026-06-01", name: "pear", kcal: 95, proteinG: 0.5 }, table: "nutrition.food_item" },
    {
      path: "/api/nutrition/copy",
      given: { path: "/api/nutrition/items", body: { date: "2026-06-01", meal: "lunch", name: "apple", kcal: 95, proteinG: 0.5 } },
      body: { from: { date: "2026-06-01" }, to: { date: "2026-06-02" } },
      other: { from: { date: "2026-06-01" }, to: { date: "2026-06-03" } },
      table: "nutrition.food_item",
    },
    { path: "/api/nutrition/describe", body: { text: "two eggs and a slice of toast", date: "2026-06-01" }, other: { text: "a banana", date: "2026-06-01" }, table: "nutrition.food_item" },
    { path: "/api/workouts/describe", body: { text: "ran 5 km in 30 minutes", date: "2026-06-01", tz: 0 }, other: { text: "walked 3 km", date: "2026-06-01", tz: 0 }, table: "workouts.workout" },
    {
      path: "/api/workouts/import",
      body: { source: "activity_app", externalId: "run-1", activityType: "run", startedAt: Date.UTC(2026, 5, 1, 7), durationS: 1800, distanceM: 5000 },
      other: { source: "activity_app", externalId: "run-2", activityType: "run", startedAt: Date.UTC(2026, 5, 2, 7), durationS: 1800, distanceM: 5000 },
      table: "workouts.workout",
    },
  ] as const;

  it.each(creating)("$path: the same key and body answer the first answer again and write once; another body is a 422", async (creation) => {
    const { path, body, other, table } = creation;
    const { api, accountId } = await person();
    if ("given" in creation) expect((await api.post(creation.given.path, creation.given.body)).status).toBe(200);
    const key = randomUUID();
    const first = await api.post(path, body, keyed(key));
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const rows = await count(table, accountId);
    expect(rows).toBeGreaterThan(0);

    const again = await api.post(path, body, keyed(key));
    expect({ status: again.status, body: again.body }).toEqual({ status: first.status, body: first.body });
    expect(await count(table, accountId), "the retry wrote nothing").toBe(rows);

    const changed = await api.post(path, other, keyed(key));
    expect(changed.status, JSON.stringify(changed.body)).toBe(422);
    expect(changed.body.error).toMatch(/Idempotency-Key/);
    expect(await count(table, accountId), "the other body wrote nothing").toBe(rows);
  }, 30_000);

  it("without the header writes again, as before", async () => {
    const { api, accountId } = await person();
    for (let i = 0; i < 2; i++) expect((await api.post("/api/weight", { weightKg: 70 })).status).toBe(200);
    expect(await count("body_metrics.weight_reading", accountId)).toBe(2);
  });

  it("takes the key bare or quoted, the same key either way, and refuses a malformed one with 400", async () => {
    const { api, accountId } = await person();
    const key = randomUUID();
    const quoted = await api.post("/api/weight", { weightKg: 70 }, keyed(key));
    const bare = await api.post("/api/weight", { weightKg: 70 }, { "idempotency-key": key });
    expect(bare.body).toEqual(quoted.body);
    for (const value of ["\"unterminated", "\"\"", `"${"k".repeat(256)}"`, "two words"]) {
      const refused = await api.post("/api/weight", { weightKg: 70 }, { "idempotency-key": value });
      expect(refused.status, value).toBe(400);
    }
    expect(await count("body_metrics.weight_reading", accountId)).toBe(1);
  });

  it("keeps accounts' keys apart: the same key from two accounts is two writes", async () => {
    const [alice, bob] = [await person(), await person()];
    const key = randomUUID();
    const a = await alice.api.post("/api/weight", { weightKg: 70 }, keyed(key));
    const b = await bob.api.post("/api/weight", { weightKg: 70 }, keyed(key));
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.id).not.toBe(b.body.id);
    expect([await count("body_metrics.weight_reading", alice.accountId), await count("body_metrics.weight_reading", bob.accountId)]).toEqual([1, 1]);
  });

  it("answers 409 to a request whose key is still in flight, and the first answer once it is done", async () => {
    const { api, accountId } = await person();
    const key = randomUUID();
    // The first request's write waits on a lock this connection holds.
    const lock = new pg.Client({ connectionString: system.env["DATABASE_URL"] });
    await lock.connect();
    onTestFinished(() => lock.end());
    await lock.query("BEGIN");
    await lock.query("LOCK TABLE body_metrics.weight_reading IN EXCLUSIVE MODE");
    const first = api.post("/api/weight", { weightKg: 70 }, keyed(key));
    await delay(300);
    const second = await api.post("/api/weight", { weightKg: 70 }, keyed(key));
    await lock.query("COMMIT");
    expect(second.status, JSON.stringify(second.body)).toBe(409);
    const done = await first;
    expect(done.status).toBe(200);
    expect((await api.post("/api/weight", { weightKg: 70 }, keyed(key))).body).toEqual(done.body);
    expect(await count("body_metrics.weight_reading", accountId)).toBe(1);
  });

  it("forgets a key after 24 hours: the same key then writes again", async () => {
    const { api, accountId } = await person();
    const key = randomUUID();
    const first = await api.post("/api/weight", { weightKg: 70 }, keyed(key));
    await sql.query("UPDATE body_metrics.idempotency_key SET created_at = now() - interval '24 hours 1 minute' WHERE account_id = $1::uuid", [accountId]);
    const later = await api.post("/api/weight", { weightKg: 70 }, keyed(key));
    expect(later.status).toBe(200);
    expect(later.body.id).not.toBe(first.body.id);
    expect(await count("body_metrics.weight_reading", accountId)).toBe(2);
    expect((await api.post("/api/weight", { weightKg: 70 }, keyed(key))).body, "the new answer is remembered").toEqual(later.body);
  });
});
