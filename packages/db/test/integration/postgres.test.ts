// Against a real PostgreSQL, in a schema made for this run: the server @fit/testing's global setup found,
// else TEST_DATABASE_URL, else 127.0.0.1:5432/test.
import { randomUUID } from "node:crypto";
import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { sqltag as sql } from "@prisma/client/runtime/client";
import { getLogs } from "@prisma/debug";
import { createOutboxSource, forgetQueryArguments, migrate, onOwnThread, openDatabase, ping, servicePrisma, type Database, type OutboxRow } from "../../src/index.ts";
import { internalsOf } from "../../src/database.ts";
import { claimSql, settleSql } from "../../src/outbox.ts";
import { engineLoadedHere } from "../../src/engine.ts";
import { driverTypes } from "../../src/timestamps.ts";
import { whereItRan } from "../fixture/thread-task.ts";
import { clientFor, fixture, outboxEvent, sleep } from "../helpers.ts";

const url = (inject("databaseUrl") as string | undefined) ?? process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const schema = `fit_db_test_${randomUUID().slice(0, 8)}`;
/** A schema whose outbox is first claimed from while empty. */
const emptyFirstSchema = `${schema}_empty_first`;
const opened: Database[] = [];
const admin = new pg.Client({ connectionString: url });

async function open(poolSize?: number): Promise<Database> {
  const db = await openDatabase({ url, schema, dataDir: "unused", poolSize });
  opened.push(db);
  return db;
}

beforeAll(async () => {
  await admin.connect();
});
afterAll(async () => {
  await Promise.all(opened.map((db) => db.close()));
  await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await admin.query(`DROP SCHEMA IF EXISTS "${emptyFirstSchema}" CASCADE`);
  await admin.end();
});

describe("migrate on PostgreSQL", () => {
  it("creates the service's schema and puts every table there, not in public", async () => {
    const db = await open();
    expect((await migrate(db, fixture)).applied).toHaveLength(1);
    const tables = await admin.query<{ table_schema: string; table_name: string }>(
      "SELECT table_schema, table_name FROM information_schema.tables WHERE table_name IN ('note', 'outbox_event', '_prisma_migrations') ORDER BY table_schema, table_name",
    );
    const mine = tables.rows.filter((r) => r.table_schema === schema).map((r) => r.table_name);
    expect(mine).toEqual(["_prisma_migrations", "note", "outbox_event"]);
    expect(tables.rows.filter((r) => r.table_schema === "public")).toEqual([]);
  });

  it("applies each migration once when several replicas start at once", async () => {
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await admin.query(`DROP SCHEMA IF EXISTS "${emptyFirstSchema}" CASCADE`);
    const replicas = await Promise.all([open(2), open(2), open(2), open(2)]);
    const results = await Promise.all(replicas.map((db) => migrate(db, fixture)));
    expect(results.map((r) => r.applied.length).sort()).toEqual([0, 0, 0, 1]);
    const rows = await admin.query(`SELECT migration_name FROM "${schema}"._prisma_migrations`);
    expect(rows.rowCount).toBe(1);
  });

  // The engine takes pg_advisory_lock(72707369) and never releases it; on a shared pool that would stall
  // the next service migrating in this database.
  it("leaves no advisory lock behind once migrate returns", async () => {
    const db = await open();
    await migrate(db, fixture);
    // Sessions are named after the schema (application_name), unique to this run.
    const held = await admin.query(
      `SELECT l.objid FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
       WHERE l.locktype = 'advisory' AND a.application_name LIKE $1`,
      [`${schema}%`],
    );
    expect(held.rows).toEqual([]);
  });
});

describe("migrations on a thread of their own (PostgreSQL)", () => {
  const failingSchema = `${schema}_failing`;
  afterAll(async () => {
    await admin.query(`DROP SCHEMA IF EXISTS "${failingSchema}" CASCADE`);
  });

  it("answers with what the engine said when a migration fails, and keeps the engine out of the caller's thread", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "fit-db-failing-"));
    try {
      await cp(path.dirname(fixture.schemaPath), dir, { recursive: true });
      await mkdir(path.join(dir, "migrations", "20261129000000_broken"));
      await writeFile(path.join(dir, "migrations", "20261129000000_broken", "migration.sql"), "ALTER TABLE no_such_table ADD COLUMN x int;\n");
      const db = await openDatabase({ url, schema: failingSchema, dataDir: "unused" });
      opened.push(db);
      await expect(migrate(db, servicePrisma(dir))).rejects.toThrow(/no_such_table/);
      // The first migration went in before the broken one stopped the engine.
      const rows = await admin.query(`SELECT migration_name FROM "${failingSchema}"._prisma_migrations WHERE finished_at IS NOT NULL`);
      expect(rows.rows.map((r: { migration_name: string }) => r.migration_name)).toEqual(["20261122023748_init"]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    // Every migrate of this file ran on PostgreSQL, so on the migration thread: this one never loaded the engine.
    expect(engineLoadedHere()).toBe(false);
  });
});

describe("work on a thread of its own", () => {
  it("runs on another thread with a database of its own on the same schema, and here on PGlite", async () => {
    const db = await open();
    const entry = fileURLToPath(new URL("../fixture/thread-task.ts", import.meta.url));
    const ran = await onOwnThread(db, entry, whereItRan);
    expect(ran.threadId).toBeGreaterThan(0);
    expect(ran.schema).toBe(schema);

    const memory = await openDatabase({ schema: "unused", dataDir: "memory://" });
    try {
      expect(await onOwnThread(memory, entry, whereItRan)).toEqual({ threadId: 0, schema: "public" });
    } finally {
      await memory.close();
    }
  });
});

describe("outbox on PostgreSQL", () => {
  let db: Database;
  let client: ReturnType<typeof clientFor>;
  beforeAll(async () => {
    db = await open();
    await migrate(db, fixture);
    client = clientFor(db);
  });
  afterAll(async () => {
    await client?.$disconnect();
  });

  /** Claims, runs `send`, settles every row as sent: what the relay does when the bus answers. */
  const relayOnce = async (outbox: ReturnType<typeof createOutboxSource>, limit: number, send: (rows: OutboxRow[]) => Promise<void>) => {
    const rows = await outbox.claim(limit);
    if (rows.length) await send(rows);
    await outbox.settle({ sent: rows.map((r) => r.id), failed: [], untried: [] });
    return rows.length;
  };

  it("claims a row only once across two concurrent claimers", async () => {
    await client.outboxEvent.deleteMany();
    const t = Date.now();
    await client.outboxEvent.createMany({ data: Array.from({ length: 30 }, (_, i) => outboxEvent(`e${i}`, new Date(t + i))) });
    const other = await open();
    const sent: string[] = [];
    let overlapping = 0;
    let inSend = 0;
    const claimer = async (outbox: ReturnType<typeof createOutboxSource>) => {
      while ((await relayOnce(outbox, 4, async (rows) => {
        inSend++;
        overlapping = Math.max(overlapping, inSend);
        await sleep(30);
        sent.push(...rows.map((r) => r.subject));
        inSend--;
      })) > 0);
    };
    await Promise.all([claimer(createOutboxSource(db)), claimer(createOutboxSource(other))]);
    expect(overlapping).toBe(2); // both claimers really held rows at the same time
    expect(sent).toHaveLength(30);
    expect(new Set(sent).size).toBe(30);
    expect(await createOutboxSource(db).pending()).toBe(0);
  });

  // What lets the relay publish outside any transaction: once claim() resolves, no lock and no open
  // transaction hold the rows, yet another relay's claim skips them.
  it("commits the claim before the rows are published: no row lock is held while they are sent", async () => {
    await client.outboxEvent.deleteMany();
    const row = outboxEvent("claimed");
    await client.outboxEvent.create({ data: row });
    const outbox = createOutboxSource(db);
    await relayOnce(outbox, 10, async () => {
      const seen = await admin.query(`SELECT claimed_at FROM "${schema}".outbox_event WHERE id = $1 FOR UPDATE NOWAIT`, [row.id]);
      expect(seen.rows[0]?.claimed_at).toBeInstanceOf(Date);
      const idle = await admin.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND state LIKE 'idle in transaction%'", [`${schema}:outbox`]);
      expect(idle.rows[0]?.n).toBe(0);
      expect(await createOutboxSource(await open()).claim(10)).toEqual([]);
    });
    expect(await outbox.pending()).toBe(0);
  });

  it("marks nothing sent for a failed row, counts its attempt and lets the next claim take it", async () => {
    await client.outboxEvent.deleteMany();
    await client.outboxEvent.create({ data: outboxEvent("x") });
    const outbox = createOutboxSource(db);
    const [row] = await outbox.claim(10);
    await outbox.settle({ sent: [], failed: [row!.id], untried: [] });
    expect(await outbox.pending()).toBe(1);
    expect((await client.outboxEvent.findFirstOrThrow()).attempts).toBe(1);
    expect(await outbox.claim(10)).toHaveLength(1);
  });

  it("lets other queries of the same client run while a claim's rows are being sent", async () => {
    await client.outboxEvent.create({ data: outboxEvent("slow") });
    const order: string[] = [];
    await relayOnce(createOutboxSource(db), 10, async () => {
      await client.note.create({ data: { text: "during send" } });
      await ping(client);
      order.push("queried during send");
    });
    expect(order).toEqual(["queried during send"]);
  });

  it("waits for the WAL flush on the requests' connections but not on the relay's bookkeeping", async () => {
    const [requests] = await db.query<{ synchronous_commit: string }>(sql`SHOW synchronous_commit`);
    const [relay] = await internalsOf(db).outbox.query<{ synchronous_commit: string }>("SHOW synchronous_commit");
    expect(requests?.synchronous_commit).toBe("on");
    expect(relay?.synchronous_commit).toBe("off");
  });

  it("claims on a connection of its own while every pooled connection is taken", async () => {
    const busy = await open(1);
    const busyClient = clientFor(busy);
    await busyClient.outboxEvent.deleteMany();
    await busyClient.outboxEvent.create({ data: outboxEvent("while busy") });
    let release!: () => void;
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    const hold = busyClient.$transaction(async (tx) => {
      await tx.$queryRawUnsafe("SELECT 1");
      holding();
      await new Promise<void>((resolve) => (release = resolve));
    }, { timeout: 30_000 });
    await held;
    const started = Date.now();
    const claimed = (await createOutboxSource(busy).claim(10)).length;
    release();
    await hold;
    await busyClient.$disconnect();
    expect(claimed).toBe(1);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("keeps index scans for its claim and settle when their plans were made on an empty table that then filled", async () => {
    const fresh = await openDatabase({ url, schema: emptyFirstSchema, dataDir: "unused" });
    opened.push(fresh);
    await migrate(fresh, fixture);
    const outbox = createOutboxSource(fresh);
    // The relay's first pass, on the empty table, makes and keeps each statement's generic plan.
    await relayOnce(outbox, 100, async () => {});
    await outbox.settle({ sent: [], failed: [], untried: [randomUUID()] });
    const freshClient = clientFor(fresh);
    const sentAt = new Date();
    await freshClient.outboxEvent.createMany({ data: Array.from({ length: 5000 }, (_, i) => ({ ...outboxEvent(`sent${i}`), sentAt })) });
    await freshClient.outboxEvent.createMany({ data: [outboxEvent("pending")] });
    await freshClient.$disconnect();
    // The relay's connection is one session: EXPLAIN EXECUTE shows the plan it keeps for each named statement.
    const relay = internalsOf(fresh).outbox;
    const planOf = async (text: string, args: string) => {
      const [statement] = await relay.query<{ name: string }>("SELECT name FROM pg_prepared_statements WHERE statement = $1", [text]);
      const rows = await relay.query<{ "QUERY PLAN": string }>(`EXPLAIN EXECUTE "${statement!.name}"(${args})`);
      return rows.map((row) => row["QUERY PLAN"]).join("\n");
    };
    const claim = await planOf(claimSql, "100, 15000");
    expect(claim).toMatch(/LockRows[\s\S]*->\s+Index Scan using outbox_event_pending_idx/);
    expect(claim).not.toMatch(/Bitmap|Seq Scan/);
    const settle = await planOf(settleSql, "'{}', '{}', '{}'");
    expect(settle).toMatch(/Index Scan using outbox_event_pkey/);
    expect(settle).not.toMatch(/Bitmap|Seq Scan/);
  });
});

describe("a store's statements on PostgreSQL", () => {
  it("are parsed once per connection and run by name after, with each call's own values", async () => {
    const db = await open(1);
    const doubled = (n: number) => db.query<{ doubled: number }>(sql`SELECT ${n}::int * 2 AS doubled`);
    expect(await doubled(2)).toEqual([{ doubled: 4 }]);
    expect(await doubled(5)).toEqual([{ doubled: 10 }]);
    // One connection in the pool, so this is the session that ran both.
    const prepared = await db.query<{ name: string; statement: string }>(sql`SELECT name, statement FROM pg_prepared_statements`);
    expect(prepared.filter((p) => p.statement === "SELECT $1::int * 2 AS doubled")).toEqual([{ name: expect.stringMatching(/^fit_/), statement: "SELECT $1::int * 2 AS doubled" }]);
  });

  it("are planned once, not again for each call's values, whatever the statistics say", async () => {
    const db = await open(1);
    await db.query(sql`CREATE TABLE skewed (account_id int NOT NULL, n int NOT NULL)`);
    await db.query(sql`CREATE INDEX ON skewed (account_id)`);
    // One account with nearly every row: PostgreSQL's own choice would re-plan each call for the others.
    await db.query(sql`INSERT INTO skewed SELECT CASE WHEN i % 1000 = 0 THEN i ELSE 1 END, i FROM generate_series(1, 20000) i`);
    await db.query(sql`ANALYZE skewed`);
    const text = "SELECT count(*)::int AS rows FROM skewed WHERE account_id = $1";
    for (let call = 0; call < 8; call++) await db.query(sql`SELECT count(*)::int AS rows FROM skewed WHERE account_id = ${1000 * (call + 1)}`);
    const [plans] = await db.query<{ generic_plans: number; custom_plans: number }>(
      sql`SELECT generic_plans::int, custom_plans::int FROM pg_prepared_statements WHERE statement = ${text}`,
    );
    expect(plans).toEqual({ generic_plans: 8, custom_plans: 0 });
  });
});

describe("what Prisma keeps of its queries", () => {
  it("lets go of a query's arguments once forgetQueryArguments is called, where Prisma would keep them for 100 more queries", async () => {
    const db = await open();
    const prisma = clientFor(db);
    const marker = `forget-me-${randomUUID()}-${"x".repeat(1_000_000)}`;
    expect(await prisma.$queryRawUnsafe<{ n: number }[]>("SELECT length($1::text) AS n", marker)).toEqual([{ n: marker.length }]);
    // The driver adapter's copy of @prisma/debug is the one this package clears: otherwise the history would hold it still.
    expect(getLogs(10_000_000)).toContain(marker.slice(0, 60));
    forgetQueryArguments();
    expect(getLogs(10_000_000)).not.toContain(marker.slice(0, 60));
    await prisma.$disconnect();
  });
});

describe("timestamps read from PostgreSQL", () => {
  const sample = `SELECT at, floor(extract(epoch FROM at) * 1000)::bigint::text AS ms FROM (
      SELECT to_timestamp(-30000000000 + random() * 283000000000) FROM generate_series(1, 300)
      UNION ALL VALUES (now()), ('2026-03-29 01:30:00.123456+00'), ('1900-01-01 00:00:00+00'), ('1000-01-01 00:00:00.5+00'),
        ('0999-12-31 23:59:59.5+00'), ('0044-03-15 12:00:00+00 BC'), ('9999-12-31 23:59:59.999999+00'), ('12000-01-01 00:00:00+00')
    ) AS v(at)`;

  it("are the instants PostgreSQL stores, in any session time zone", async () => {
    const client = new pg.Client({ connectionString: url, types: driverTypes });
    await client.connect();
    try {
      for (const zone of ["UTC", "Asia/Kolkata", "America/St_Johns", "Asia/Kathmandu", "Pacific/Kiritimati", "America/Los_Angeles", "Europe/Amsterdam"]) {
        await client.query(`SET TimeZone = '${zone}'`);
        const { rows } = await client.query<{ at: Date; ms: string }>(sample);
        expect(rows.map((row) => row.at.getTime()), zone).toEqual(rows.map((row) => Number(row.ms)));
      }
    } finally {
      await client.end();
    }
  });

  it("come out of a store's query as Dates of those instants", async () => {
    const db = await open();
    const rows = await db.query<{ at: Date; ms: string }>(sql([sample]));
    expect(rows.every((row) => row.at instanceof Date)).toBe(true);
    expect(rows.map((row) => row.at.getTime())).toEqual(rows.map((row) => Number(row.ms)));
  });
});
