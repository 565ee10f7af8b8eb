import { randomBytes, randomUUID } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { connect } from "nats";
import pg from "pg";
import { describe, expect, inject, it, onTestFinished } from "vitest";
import { nutritionBus, nutritionEvents, outboxRow, type EventEnvelope } from "@fit/contracts";
import { createBus, DUPLICATE_WINDOW_MS, startOutboxRelay } from "@fit/bus";
import { createIdempotencyKeys, createOutboxSource } from "@fit/db";
import { buildNutrition, loadNutritionConfig } from "@fit/nutrition";
import { openServiceDatabase, startIdempotencyKeyPruning, startOutboxPruning } from "@fit/service-kit";
import { createTestDatabase, uniqueTag } from "@fit/testing";
import { serviceClient } from "./support/service-client.ts";
import { startTcpProxy } from "./support/tcp-proxy.ts";
import { waitFor } from "./support/wait.ts";

/*
 * Issue 12's housekeeping on a real PostgreSQL and NATS (docs/decisions/0033-outbox-lease-reconcile-lock-readiness.md):
 * the outbox's second send de-duplicated by JetStream and its pruning floor, readiness following the database
 * and the bus, and a shutdown that lets in-flight work finish. Each test has a database of its own and a
 * namespace of its own on NATS; outages are made by closing a proxy in front of the servers, never the servers.
 */

const ignore = () => undefined;
const silent = { debug: ignore, info: ignore, warn: ignore, error: ignore };
const nutritionPrisma = fileURLToPath(new URL("../services/nutrition/prisma/", import.meta.url));

const testDatabase = async () => {
  const database = await createTestDatabase(inject("databaseUrl"));
  onTestFinished(() => database.drop());
  return database;
};

const nutritionDatabase = async (url: string) => {
  const db = await openServiceDatabase({ name: "nutrition", schema: "nutrition", prismaDir: nutritionPrisma }, { DATABASE_URL: url, DATA_DIR: "unused" }, 2);
  onTestFinished(() => db.close());
  return db;
};

const sqlClient = async (url: string) => {
  const sql = new pg.Client({ connectionString: url, options: "-c search_path=nutrition" });
  await sql.connect();
  onTestFinished(() => sql.end());
  return sql;
};

const insertOutboxRow = (sql: pg.Client, row: { id: string; subject: string; payload: object }) =>
  sql.query("INSERT INTO outbox_event (id, subject, payload) VALUES ($1, $2, $3)", [row.id, row.subject, JSON.stringify(row.payload)]);

describe("the outbox on PostgreSQL and JetStream", () => {
  it("publishes again the row of a relay that died after publishing it, once its lease lapses, and the stream keeps one copy", async () => {
    const database = await testDatabase();
    const [db, sql] = [await nutritionDatabase(database.url), await sqlClient(database.url)];
    const namespace = uniqueTag("hk");
    const bus = await createBus({ natsUrl: inject("natsUrl"), namespace, name: "housekeeping-test", logger: silent, streams: [nutritionEvents.itemLogged] });
    onTestFinished(() => bus.close());
    const row = outboxRow(nutritionEvents.itemLogged, { accountId: randomUUID(), itemId: randomUUID(), date: "2026-11-25" });
    await insertOutboxRow(sql, row);

    // The relay that died: it claimed the row, the stream stored it, and it never settled the claim.
    const dead = createOutboxSource(db);
    const [claimed] = await dead.claim(10);
    await bus.publish(claimed!.subject, claimed!.payload as EventEnvelope);
    const survivor = createOutboxSource(db);
    expect(await survivor.claim(10), "a live claim keeps other relays off the row").toEqual([]);
    await sql.query("UPDATE outbox_event SET claimed_at = claimed_at - make_interval(secs => $1::float8 / 1000)", [survivor.leaseMs + 1_000]);

    const relay = startOutboxRelay({ bus, source: survivor, logger: silent, intervalMs: 20 });
    await waitFor("the survivor to send the orphaned row", async () => ((await survivor.pending()) === 0 ? true : undefined));
    await relay.stop();

    const nc = await connect({ servers: inject("natsUrl") });
    onTestFinished(() => nc.close());
    const stream = await (await nc.jetstreamManager()).streams.info(`${namespace}_NUTRITION`);
    expect(stream.state.messages, "the second send, with the same Nats-Msg-Id, was dropped").toBe(1);
    await (await nc.jetstreamManager()).streams.delete(`${namespace}_NUTRITION`);
  });

  it("prunes sent rows older than the duplicate window, keeps younger and unsent ones, even with retention 0", async () => {
    const database = await testDatabase();
    const [db, sql] = [await nutritionDatabase(database.url), await sqlClient(database.url)];
    const rows = ["old", "young", "unsent"].map(() => outboxRow(nutritionEvents.itemLogged, { accountId: randomUUID(), itemId: randomUUID(), date: "2026-11-25" }));
    for (const row of rows) await insertOutboxRow(sql, row);
    const sentAgo = async (id: string, ms: number) => sql.query("UPDATE outbox_event SET sent_at = now() - make_interval(secs => $2::float8 / 1000) WHERE id = $1", [id, ms]);
    await sentAgo(rows[0]!.id, DUPLICATE_WINDOW_MS + 60_000);
    await sentAgo(rows[1]!.id, DUPLICATE_WINDOW_MS - 60_000);

    await startOutboxPruning(createOutboxSource(db), 0, silent, { firstAfterMs: 0 }).stop();

    const left = await sql.query<{ id: string }>("SELECT id::text FROM outbox_event");
    expect(left.rows.map((r) => r.id).sort()).toEqual([rows[1]!.id, rows[2]!.id].sort());
  });

  it("prunes idempotency keys past their 24 hours and keeps younger ones (docs/decisions/0062-idempotency-keys.md)", async () => {
    const database = await testDatabase();
    const [db, sql] = [await nutritionDatabase(database.url), await sqlClient(database.url)];
    const accountId = randomUUID();
    for (const [key, age] of [["expired", "24 hours 1 minute"], ["young", "23 hours 59 minutes"]]) {
      await sql.query(
        "INSERT INTO idempotency_key (account_id, key, request_hash, status, answer, created_at) VALUES ($1, $2, 'h', 200, '{}', now() - $3::interval)",
        [accountId, key, age],
      );
    }

    await startIdempotencyKeyPruning(createIdempotencyKeys(db), silent, { firstAfterMs: 0 }).stop();

    const left = await sql.query<{ key: string }>("SELECT key FROM idempotency_key");
    expect(left.rows.map((r) => r.key)).toEqual(["young"]);
  });
});

const nutritionConfig = (databaseUrl: string, natsUrl: string, namespace: string, secret: string) =>
  loadNutritionConfig({
    DATABASE_URL: databaseUrl,
    NATS_URL: natsUrl,
    NATS_NAMESPACE: namespace,
    INTERNAL_ASSERTION_SECRET: secret,
    LOG_LEVEL: "silent",
    DATA_DIR: "unused",
  });

describe("readiness and shutdown of a service", () => {
  /** Nutrition in this process, reaching PostgreSQL and NATS through proxies the test can close or hold. */
  const startNutrition = async () => {
    const database = await testDatabase();
    const dbProxy = await startTcpProxy({ host: new URL(database.url).hostname, port: Number(new URL(database.url).port || 5432) });
    const natsUrl = new URL(inject("natsUrl"));
    const natsProxy = await startTcpProxy({ host: natsUrl.hostname, port: Number(natsUrl.port || 4222) });
    const namespace = uniqueTag("hk");
    const secret = randomBytes(32).toString("hex");
    const app = await buildNutrition({ config: nutritionConfig(dbProxy.url(database.url), natsProxy.url(inject("natsUrl")), namespace, secret) });
    let closing: Promise<void> | undefined;
    const close = () => (closing ??= app.close());
    onTestFinished(async () => {
      dbProxy.release();
      await Promise.all([dbProxy.open().catch(() => undefined), natsProxy.open().catch(() => undefined)]);
      await close();
      await Promise.all([dbProxy.close(), natsProxy.close()]);
    });
    const url = await app.listen({ host: "127.0.0.1", port: 0 });
    const readyz = async () => (await fetch(`${url}/readyz`)).status;
    const until = (status: number, what: string) => waitFor(what, async () => ((await readyz()) === status ? status : undefined), 15_000);
    return { url, secret, namespace, dbProxy, natsProxy, readyz, until, close };
  };

  // The lock every replica of a schema takes before migrating (packages/db/src/open.ts), held here as a
  // replica that is migrating would hold it.
  it("answers no probe while migrations run: it is built, and so listens, only once they are done", async () => {
    const database = await testDatabase();
    const migrating = await sqlClient(database.url);
    await migrating.query("SELECT pg_advisory_lock(hashtext($1))", ["fit-db-migrate:nutrition"]);
    let built = false;
    const building = buildNutrition({ config: nutritionConfig(database.url, inject("natsUrl"), uniqueTag("hk"), randomBytes(32).toString("hex")) });
    void building.then(() => (built = true), () => undefined);
    await delay(2_000);
    expect(built, "still waiting for the migrations").toBe(false);
    await migrating.query("SELECT pg_advisory_unlock(hashtext($1))", ["fit-db-migrate:nutrition"]);
    const app = await building;
    onTestFinished(() => app.close());
    expect((await app.inject({ method: "GET", url: "/readyz" })).statusCode).toBe(200);
  });

  it("is not ready while its database is unreachable, and ready again once it is back", async () => {
    const service = await startNutrition();
    expect(await service.readyz()).toBe(200);
    await service.dbProxy.close();
    expect(await service.until(503, "/readyz to answer 503 with PostgreSQL unreachable")).toBe(503);
    await service.dbProxy.open();
    expect(await service.until(200, "/readyz to answer 200 once PostgreSQL is reachable")).toBe(200);
  });

  it("is not ready while NATS is unreachable, and ready again once it is back", async () => {
    const service = await startNutrition();
    expect(await service.readyz()).toBe(200);
    await service.natsProxy.close();
    expect(await service.until(503, "/readyz to answer 503 with NATS unreachable")).toBe(503);
    await service.natsProxy.open();
    expect(await service.until(200, "/readyz to answer 200 once NATS is reachable")).toBe(200);
  });

  it("finishes an in-flight request and an in-flight bus request when it shuts down, and takes no new request", async () => {
    const service = await startNutrition();
    const caller = { accountId: randomUUID(), email: "drain@example.com" };
    const client = serviceClient(() => service.url, service.secret, caller);
    const date = new Date().toISOString().slice(0, 10);
    expect((await client.post("/api/nutrition/items", { date, name: "toast", kcal: 100, proteinG: 4 })).status).toBe(200);
    const asker = await createBus({ natsUrl: inject("natsUrl"), namespace: service.namespace, name: "housekeeping-asker", logger: silent, streams: [] });
    onTestFinished(() => asker.close());

    // Both reach the service and wait there on the held database.
    service.dbProxy.hold();
    const finished: string[] = [];
    const write = client.post("/api/nutrition/items", { date, name: "egg", kcal: 80, proteinG: 6 }).finally(() => finished.push("request"));
    const question = asker.request(nutritionBus.dayTotal, { ...caller, date }, { timeoutMs: 20_000 }).finally(() => finished.push("bus request"));
    await waitFor("both to wait on the database", async () => (service.dbProxy.heldWrites() >= 2 ? true : undefined));
    await delay(300);

    const closed = service.close().then(() => finished.push("closed"));
    await delay(300);
    await expect(fetch(`${service.url}/healthz`), "no new request once shutdown began").rejects.toThrow();
    expect(finished).toEqual([]);
    service.dbProxy.release();

    expect(await write).toMatchObject({ status: 200 });
    // The two statements wait on different connections, and the proxy releases them in the order they arrived:
    // the question sees the day with or without the egg, and either is an answer.
    const total = await question;
    expect([{ date, kcal: 100, proteinG: 4 }, { date, kcal: 180, proteinG: 10 }]).toContainEqual({ date: total?.date, kcal: total?.kcal, proteinG: total?.proteinG });
    // Within the 10 s grace runUntilSignalled gives, else the process exits before the bus and database close.
    expect(await Promise.race([closed.then(() => "closed"), delay(10_000).then(() => "still closing")])).toBe("closed");
    expect(finished.at(-1)).toBe("closed");
  });
});
