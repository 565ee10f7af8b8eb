import { randomBytes, randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { createTestDatabase, uniqueTag } from "@fit/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import {
  connectJetStream,
  serviceClient,
  sleep,
  startPgProxy,
  startPrivateNats,
  startServiceProcess,
  waitFor,
  within,
  type JetStreamProbe,
  type PgProxy,
  type PrivateNats,
  type ServiceProcess,
} from "./support/faults.ts";

/*
 * security.md 24 (and 19–21, rule 5): the nutrition service run as its own process against this file's own
 * PostgreSQL database and a PRIVATE nats-server, so NATS can be stopped and the service killed with SIGKILL
 * without disturbing anything shared. Its database connections go through a TCP proxy that can freeze one
 * transaction at an exact point (before or after its COMMIT reaches PostgreSQL).
 *
 * Invariants checked after every fault, once things settle: every stored daily total equals the sum of its
 * day's items (and no total exists for a day without items), every outbox row is sent, no day is left pending,
 * and each of two accounts sees exactly its own sums through GET /api/nutrition.
 */

const SECRET = randomBytes(32).toString("hex");
const NAMESPACE = uniqueTag("faults");
const STREAM = `${NAMESPACE}_NUTRITION`;
const ROLLUP_DURABLES = ["nutrition-rollup-logged", "nutrition-rollup-updated", "nutrition-rollup-deleted"] as const;
const LOGGED_SUBJECT = `${NAMESPACE}.nutrition.item.logged`;
const DAYS = ["2026-05-01", "2026-05-02", "2026-05-03"] as const;
const SETTLE_MS = 20_000;

let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
let nats: PrivateNats | undefined;
let proxy: PgProxy | undefined;
let js: JetStreamProbe | undefined;
let sql: pg.Client | undefined;
let dataDir: string | undefined;
let nutrition: ServiceProcess | undefined;

const need = <T>(value: T | undefined, what: string): T => {
  if (value === undefined) throw new Error(`${what} did not start`);
  return value;
};

const startNutrition = async () => {
  nutrition = await startServiceProcess("services/nutrition/src/main.ts", {
    DATABASE_URL: need(proxy, "the PostgreSQL proxy").url(need(database, "the database").url),
    NATS_URL: need(nats, "nats-server").url,
    NATS_NAMESPACE: NAMESPACE,
    INTERNAL_ASSERTION_SECRET: SECRET,
    LOG_LEVEL: "warn",
    DATA_DIR: need(dataDir, "the data folder"),
  });
  return nutrition;
};

/**
 * Starts the service again. `ackWaitMs` shortens the durables' ack_wait AFTER the service has set its own
 * (30 s), only so that an event a killed process held unacknowledged is redelivered within this test's time
 * budget; the redelivery itself is the server's ordinary behaviour.
 */
const restartNutrition = async ({ ackWaitMs }: { ackWaitMs?: number } = {}) => {
  await nutrition?.kill("SIGKILL");
  await startNutrition();
  if (ackWaitMs) for (const durable of ROLLUP_DURABLES) await need(js, "JetStream").setAckWait(STREAM, durable, ackWaitMs);
};

beforeAll(async () => {
  database = await createTestDatabase(inject("databaseUrl"));
  dataDir = await mkdtemp(join(tmpdir(), "fit-faults-"));
  nats = await startPrivateNats();
  proxy = await startPgProxy(database.url);
  js = await connectJetStream(nats.url);
  await startNutrition();
  sql = new pg.Client({ connectionString: database.url, options: "-c search_path=nutrition" });
  await sql.connect();
});

afterAll(async () => {
  // Each step on its own: one failing must not leave a process or server behind.
  const steps: (() => Promise<unknown> | undefined)[] = [
    () => nutrition?.kill("SIGKILL"),
    () => sql?.end(),
    () => js?.close(),
    () => nats?.close(),
    () => proxy?.close(),
    () => database?.drop(),
    () => (dataDir ? rm(dataDir, { recursive: true, force: true }) : undefined),
  ];
  for (const step of steps) await Promise.resolve().then(step).catch((err: unknown) => console.error("cleanup step failed", err));
});

beforeEach(async (context) => {
  context.onTestFailed(() => console.error(`--- nutrition log (last lines) ---\n${nutrition?.log().split("\n").slice(-30).join("\n") ?? "(not running)"}`));
  // A test starts from a running, ready system (database and bus reachable), whatever the previous one left.
  if (!need(nats, "nats-server").running()) await need(nats, "nats-server").start();
  const ready = nutrition?.running() && (await fetch(`${nutrition.url}/readyz`).catch(() => undefined))?.status === 200;
  if (!ready) await restartNutrition();
});

// ---- accounts, and what each should see ----
interface Account {
  accountId: string;
  email: string;
  api: ReturnType<typeof serviceClient>;
  items: Map<string, { date: string; kcal: number; proteinG: number }>;
}

const newAccount = (): Account => {
  const accountId = randomUUID();
  const email = `${accountId}@example.com`;
  return { accountId, email, api: serviceClient(() => need(nutrition, "nutrition").url, SECRET, { accountId, email }), items: new Map() };
};

/** The day totals an account must have: sums of its current items, newest day first. Integer kcal, half grams: exact sums. */
const expectedTotals = (account: Account) => {
  const byDate = new Map<string, { date: string; kcal: number; proteinG: number }>();
  for (const item of account.items.values()) {
    const total = byDate.get(item.date) ?? { date: item.date, kcal: 0, proteinG: 0 };
    total.kcal += item.kcal;
    total.proteinG += item.proteinG;
    byDate.set(item.date, total);
  }
  return [...byDate.values()].sort((a, b) => (a.date < b.date ? 1 : -1));
};

const logItem = async (account: Account, date: string, kcal: number, proteinG: number) => {
  const response = await account.api.post("/api/nutrition/items", { date, name: "food", kcal, proteinG });
  expect(response.status).toBe(200);
  account.items.set(response.body.id as string, { date, kcal, proteinG });
  return response.body.id as string;
};

const editItem = async (account: Account, id: string, patch: { date?: string; kcal?: number; proteinG?: number }) => {
  const response = await account.api.patch(`/api/nutrition/items/${id}`, patch);
  expect(response.status).toBe(200);
  const item = account.items.get(id);
  if (item) account.items.set(id, { ...item, ...patch });
};

const deleteItem = async (account: Account, id: string) => {
  expect((await account.api.delete(`/api/nutrition/items/${id}`)).status).toBe(200);
  account.items.delete(id);
};

/** What GET /api/nutrition shows each account, reduced to date and sums. */
const shown = async (account: Account) =>
  ((await account.api.get("/api/nutrition")).body as { date: string; kcal: number; proteinG: number; userEmail: string }[]).map(
    ({ date, kcal, proteinG, userEmail }) => ({ date, kcal, proteinG, userEmail }),
  );

/** Read-your-writes (rule 6): right after a write, every account sees its own current sums, whatever the bus does. */
const expectReadYourWrites = async (...accounts: Account[]) => {
  for (const account of accounts) {
    expect(await shown(account)).toEqual(expectedTotals(account).map((t) => ({ ...t, userEmail: account.email })));
  }
};

// ---- the nutrition schema, read directly ----
const query = async <R extends pg.QueryResultRow>(text: string, values: unknown[] = []) =>
  (await need(sql, "the PostgreSQL client").query<R>(text, values)).rows;

/** Days of these accounts whose stored total is not the sum of their items, a total without items, or items without a total. */
const mismatchedDays = (accounts: Account[]) =>
  query(
    `SELECT COALESCE(i.account_id, t.account_id)::text AS account_id, COALESCE(i.date, t.date) AS date,
            i.kcal AS items_kcal, t.kcal AS stored_kcal, i.n AS items, t.item_count AS stored_items
     FROM (SELECT account_id, date, SUM(kcal) AS kcal, SUM(protein_g) AS protein_g, COUNT(*)::int AS n
           FROM food_item WHERE account_id = ANY($1::uuid[]) GROUP BY account_id, date) i
     FULL JOIN (SELECT * FROM daily_total WHERE account_id = ANY($1::uuid[])) t ON t.account_id = i.account_id AND t.date = i.date
     WHERE i.account_id IS NULL OR t.account_id IS NULL OR t.item_count <> i.n
        OR t.kcal <> i.kcal OR t.protein_g <> i.protein_g
     ORDER BY 1, 2`,
    [accounts.map((a) => a.accountId)],
  );

const count = async (text: string, values: unknown[] = []) => (await query<{ n: number }>(text, values))[0]?.n ?? -1;
const accountIds = (accounts: Account[]) => [accounts.map((a) => a.accountId)];
const unsentOutboxRows = (accounts: Account[]) =>
  count("SELECT count(*)::int AS n FROM outbox_event WHERE sent_at IS NULL AND payload->'data'->>'accountId' = ANY($1)", accountIds(accounts));
const pendingDays = (accounts: Account[]) => count("SELECT count(*)::int AS n FROM pending_day WHERE account_id = ANY($1::uuid[])", accountIds(accounts));

const storedTotals = (account: Account) =>
  query<{ date: string; kcal: number; proteinG: number }>(
    `SELECT date, kcal, protein_g AS "proteinG" FROM daily_total WHERE account_id = $1 ORDER BY date DESC`,
    [account.accountId],
  );

const storedDay = async (account: Account, date: string) =>
  (
    await query<{ kcal: number; proteinG: number; itemCount: number; updatedAt: Date }>(
      `SELECT kcal, protein_g AS "proteinG", item_count AS "itemCount", updated_at AS "updatedAt"
       FROM daily_total WHERE account_id = $1 AND date = $2`,
      [account.accountId, date],
    )
  )[0];

const isPending = async (account: Account, date: string) =>
  (await count("SELECT count(*)::int AS n FROM pending_day WHERE account_id = $1 AND date = $2", [account.accountId, date])) > 0;

/**
 * Waits (bounded) until the projection has caught up, then checks every invariant, through the database and the
 * API. Scoped to the test's own accounts, so one test's failure does not fail the next ones.
 */
const expectSettled = async (...accounts: Account[]) => {
  const snapshot = async () => ({
    mismatchedDays: await mismatchedDays(accounts),
    unsentOutboxRows: await unsentOutboxRows(accounts),
    pendingDays: await pendingDays(accounts),
    storedTotals: await Promise.all(accounts.map(storedTotals)),
  });
  await expect
    .poll(snapshot, { timeout: SETTLE_MS, interval: 200 })
    .toEqual({ mismatchedDays: [], unsentOutboxRows: 0, pendingDays: 0, storedTotals: accounts.map(expectedTotals) });
  await expectReadYourWrites(...accounts);
};

const consumer = (durable: (typeof ROLLUP_DURABLES)[number]) => need(js, "JetStream").consumer(STREAM, durable);

describe("the nutrition service under faults", () => {
  // What is provoked exactly: seven writes commit (item, pending day, outbox row) while NATS is down, the relay
  // tries and fails to publish them (at least one failed attempt is awaited), and the process is killed with
  // SIGKILL while every event is committed and unpublished (a claim transaction open at the kill is rolled back).
  it("loses no write when it crashes between commit and publish (NATS down, kill -9, restarts)", async () => {
    const alice = newAccount();
    const bob = newAccount();
    await need(nats, "nats-server").stop();

    // Every write commits with its outbox row while the relay cannot publish; reads still show the new sums.
    const a1 = await logItem(alice, DAYS[0], 500, 30);
    await expectReadYourWrites(alice, bob);
    const b1 = await logItem(bob, DAYS[0], 700, 12.5);
    await expectReadYourWrites(alice, bob);
    const a2 = await logItem(alice, DAYS[1], 250, 10);
    await expectReadYourWrites(alice, bob);
    await editItem(alice, a2, { date: DAYS[0], kcal: 300 }); // moves a2: both days change
    await expectReadYourWrites(alice, bob);
    await logItem(bob, DAYS[1], 111, 1.5);
    await expectReadYourWrites(alice, bob);
    await deleteItem(bob, b1);
    await expectReadYourWrites(alice, bob);
    await editItem(alice, a1, { proteinG: 31.5 });
    await expectReadYourWrites(alice, bob);
    // Let the relay try and fail (its publish times out after 5 s): a failed publish must leave its rows unsent.
    await waitFor(
      "a failed publish attempt",
      async () => ((await count("SELECT count(*)::int AS n FROM outbox_event WHERE attempts > 0 AND payload->'data'->>'accountId' = ANY($1)", accountIds([alice, bob]))) > 0 ? true : undefined),
      15_000,
      200,
    );
    expect(await unsentOutboxRows([alice, bob]), "all 7 events are still only in the outbox").toBe(7);

    await need(nutrition, "nutrition").kill("SIGKILL");
    await need(nats, "nats-server").start();
    await startNutrition();
    await expectSettled(alice, bob);
  });

  // What is provoked exactly: nats-server is killed with SIGKILL while the service is connected (relay and durable
  // consumers), and stays down for ~2.5 s of writes; the relay's publishes fail or wait, the outbox fills, then the
  // server restarts on its store and the service reconnects by itself. Not provoked: the loss of unsynced JetStream
  // data on power failure (a killed process leaves its written data in the OS page cache), see security.md 23.
  it("delays but loses no event when NATS crashes (kill -9) and stays down for seconds while writes go on", async () => {
    const alice = newAccount();
    const bob = newAccount();
    const ids = new Map<Account, string[]>([
      [alice, []],
      [bob, []],
    ]);
    let stuckDuringOutage = 0;
    for (let i = 0; i < 24; i++) {
      if (i === 8) await need(nats, "nats-server").stop("SIGKILL");
      if (i === 16) {
        stuckDuringOutage = await unsentOutboxRows([alice, bob]);
        await need(nats, "nats-server").start();
      }
      const account = i % 2 === 0 ? alice : bob;
      const mine = ids.get(account) ?? [];
      const step = Math.floor(i / 2) % 4;
      const earlier = mine.find((id) => account.items.has(id));
      if (step === 2 && earlier) await editItem(account, earlier, { date: DAYS[(i + 1) % 3], kcal: 10 * i });
      else if (step === 3 && earlier) await deleteItem(account, earlier);
      else mine.push(await logItem(account, DAYS[i % 3] as string, 100 + i, i / 2));
      await expectReadYourWrites(alice, bob);
      await sleep(300);
    }
    expect(stuckDuringOutage, "the relay could not publish during the outage").toBeGreaterThan(0);
    await expectSettled(alice, bob);
  });

  // What is provoked exactly: the proxy lets the recompute transaction's COMMIT reach PostgreSQL and withholds the
  // answer, so the projection's change is committed while the process never learns it and never acks; the process
  // is then killed with SIGKILL. Not provoked: a crash in the instants between a successful commit answer and the
  // ack (same outcome for the server: an unacknowledged delivery), and a crash of NATS itself.
  it("applies a redelivered event without change after kill -9 between the consumer's commit and its ack", async () => {
    const alice = newAccount();
    await logItem(alice, DAYS[0], 400, 20);
    await expectSettled(alice);

    const trap = need(proxy, "the PostgreSQL proxy").trapNextRecompute("after-commit");
    await logItem(alice, DAYS[0], 150, 7.5);
    await within(trap, 10_000, "the recompute's commit to be trapped");
    await need(nutrition, "nutrition").kill("SIGKILL");

    // Exactly the state asked for: the total is committed and the day no longer pending, the event unacknowledged.
    const committed = await storedDay(alice, DAYS[0]);
    expect(committed).toMatchObject({ kcal: 550, proteinG: 27.5, itemCount: 2 });
    expect(await isPending(alice, DAYS[0])).toBe(false);
    const held = await consumer("nutrition-rollup-logged");
    expect(held.num_ack_pending).toBe(1);

    await restartNutrition({ ackWaitMs: 1_000 });
    // The redelivery was handled (delivered again, acked) and recomputed the day: a duplicate that changed nothing.
    await waitFor("the unacknowledged event to be redelivered and acked", async () => {
      const state = await consumer("nutrition-rollup-logged");
      return state.num_ack_pending === 0 && state.delivered.consumer_seq > held.delivered.consumer_seq ? state : undefined;
    });
    const after = await storedDay(alice, DAYS[0]);
    expect(after?.updatedAt.getTime(), "the duplicate was processed").toBeGreaterThan(committed?.updatedAt.getTime() ?? Infinity);
    expect(after).toMatchObject({ kcal: 550, proteinG: 27.5, itemCount: 2 });
    await expectSettled(alice);
  });

  // What is provoked exactly: the recompute transaction has run all its statements, its COMMIT never reaches
  // PostgreSQL, and the process is killed with SIGKILL, so PostgreSQL rolls it back and the event stays unacked.
  it("applies the redelivered event after kill -9 of the consumer before its commit", async () => {
    const bob = newAccount();
    await logItem(bob, DAYS[1], 300, 15);
    await expectSettled(bob);
    const before = await storedDay(bob, DAYS[1]);

    const trap = need(proxy, "the PostgreSQL proxy").trapNextRecompute("before-commit");
    await logItem(bob, DAYS[1], 80, 4);
    await within(trap, 10_000, "the recompute's commit to be trapped");
    await need(nutrition, "nutrition").kill("SIGKILL");

    // Rolled back: the stored total is the old one and the day still pending; reads would recompute it.
    await waitFor("the killed process's sessions to end (its open transaction rolled back)", async () =>
      (await count("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'nutrition'")) === 0
        ? true
        : undefined,
    );
    expect(await storedDay(bob, DAYS[1])).toEqual(before);
    expect(await isPending(bob, DAYS[1])).toBe(true);
    expect((await consumer("nutrition-rollup-logged")).num_ack_pending).toBe(1);

    await restartNutrition({ ackWaitMs: 1_000 });
    await expectSettled(bob);
  });

  // Approximate, not exact: the process is killed right after a burst of writes, at whatever point each event has
  // reached (in the outbox only, published but not marked sent, delivered but not applied, applied but not acked).
  // The annotation records which of these states the kill left behind in this run.
  it("loses nothing and double-counts nothing when killed with events in flight", async ({ annotate }) => {
    const alice = newAccount();
    const bob = newAccount();
    const writes: Promise<unknown>[] = [];
    for (let i = 0; i < 16; i++) {
      const account = i % 2 === 0 ? alice : bob;
      writes.push(logItem(account, DAYS[i % 3] as string, 50 + i, 1 + i / 2));
    }
    await Promise.all(writes);
    await need(nutrition, "nutrition").kill("SIGKILL");

    const states = await Promise.all(ROLLUP_DURABLES.map(consumer));
    await annotate(
      `at the kill: ${await unsentOutboxRows([alice, bob])} outbox rows unsent, ${await pendingDays([alice, bob])} days pending, ` +
        `${states.reduce((n, s) => n + s.num_ack_pending, 0)} deliveries unacked, ${states.reduce((n, s) => n + s.num_pending, 0)} not yet delivered`,
    );
    await restartNutrition({ ackWaitMs: 1_000 });
    await expectSettled(alice, bob);
    await waitFor("every delivery to be acked", async () =>
      (await Promise.all(ROLLUP_DURABLES.map(consumer))).every((s) => s.num_ack_pending === 0 && s.num_pending === 0) ? true : undefined,
    );
    await expectSettled(alice, bob);
  });

  it("leaves totals unchanged when the same event is delivered again under another Nats-Msg-Id", async () => {
    const alice = newAccount();
    const bob = newAccount();
    const kept = await logItem(alice, DAYS[0], 420, 21);
    const gone = await logItem(alice, DAYS[2], 99, 9);
    await deleteItem(alice, gone);
    await logItem(bob, DAYS[0], 10, 0.5);
    await expectSettled(alice, bob);

    const envelopeOf = async (itemId: string) =>
      (await query<{ payload: { id: string } }>(`SELECT payload FROM outbox_event WHERE subject = 'nutrition.item.logged' AND payload->'data'->>'itemId' = $1`, [itemId]))[0]
        ?.payload;
    const keptEvent = need(await envelopeOf(kept), "the logged event of the kept item");
    const goneEvent = need(await envelopeOf(gone), "the logged event of the deleted item");
    const before = await storedDay(alice, DAYS[0]);

    // Within the duplicate window the stream drops a second copy with the same id (security 19)...
    expect((await need(js, "JetStream").publish(LOGGED_SUBJECT, keptEvent, keptEvent.id)).duplicate).toBe(true);
    // ...so duplicates that reach the consumer carry another message id: the same envelope twice, and a late copy
    // of the event of an item deleted since (a reordered delivery).
    const copies = [
      await need(js, "JetStream").publish(LOGGED_SUBJECT, keptEvent, randomUUID()),
      await need(js, "JetStream").publish(LOGGED_SUBJECT, keptEvent, randomUUID()),
      await need(js, "JetStream").publish(LOGGED_SUBJECT, goneEvent, randomUUID()),
    ];
    expect(copies.map((c) => c.duplicate)).toEqual([false, false, false]);
    const last = Math.max(...copies.map((c) => c.seq));
    await waitFor("the copies to be handled and acked", async () => {
      const state = await consumer("nutrition-rollup-logged");
      return state.ack_floor.stream_seq >= last && state.num_ack_pending === 0 ? true : undefined;
    });

    const after = await storedDay(alice, DAYS[0]);
    expect(after?.updatedAt.getTime(), "the copies were processed").toBeGreaterThan(before?.updatedAt.getTime() ?? Infinity);
    expect(after).toMatchObject({ kcal: 420, proteinG: 21, itemCount: 1 });
    expect(await storedDay(alice, DAYS[2]), "no total comes back for the deleted item's day").toBeUndefined();
    await expectSettled(alice, bob);
  });
});
