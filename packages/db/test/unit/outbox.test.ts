import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createOutboxSource, migrate, openDatabase, ping, type Database, type OutboxRow } from "../../src/index.ts";
import { claimSql } from "../../src/outbox.ts";
import { clientFor, fixture, outboxEvent } from "../helpers.ts";

describe("outbox on PGlite", () => {
  let db: Database;
  let client: ReturnType<typeof clientFor>;

  beforeAll(async () => {
    db = await openDatabase({ schema: "fixture", dataDir: "memory://" });
    await migrate(db, fixture);
    client = clientFor(db);
  });
  afterAll(async () => {
    await client?.$disconnect();
    await db?.close();
  });
  beforeEach(async () => {
    await client.outboxEvent.deleteMany();
  });

  const ids = (rows: OutboxRow[]) => rows.map((row) => row.id);

  it("claims unsent rows oldest first, and marks sent only the rows settled as sent", async () => {
    const t = Date.now();
    await client.outboxEvent.createMany({
      data: [outboxEvent("b", new Date(t - 1000)), outboxEvent("c", new Date(t)), outboxEvent("a", new Date(t - 2000))],
    });
    const outbox = createOutboxSource(db);
    const rows = await outbox.claim(10);
    expect(rows.map((r) => r.subject)).toEqual(["a", "b", "c"]);
    expect(rows[0]?.payload).toMatchObject({ subject: "a" });
    await outbox.settle({ sent: ids(rows.slice(0, 2)), failed: [], untried: ids(rows.slice(2)) });
    const sent = await client.outboxEvent.findMany({ where: { sentAt: { not: null } }, orderBy: { subject: "asc" } });
    expect(sent.map((r) => r.subject)).toEqual(["a", "b"]);
    for (const row of sent) expect(Math.abs(row.sentAt!.getTime() - Date.now())).toBeLessThan(60_000);
    expect((await outbox.claim(10)).map((r) => r.subject)).toEqual(["c"]);
  });

  it("claims at most limit rows and leaves the rest pending", async () => {
    await client.outboxEvent.createMany({ data: [1, 2, 3, 4, 5].map((i) => outboxEvent(`s${i}`)) });
    const outbox = createOutboxSource(db);
    const rows = await outbox.claim(2);
    expect(rows).toHaveLength(2);
    await outbox.settle({ sent: ids(rows), failed: [], untried: [] });
    expect(await outbox.pending()).toBe(3);
  });

  it("commits the claim before the rows are published: a second claim gets none of them until the claim is settled", async () => {
    await client.outboxEvent.createMany({ data: [outboxEvent("x"), outboxEvent("y")] });
    const outbox = createOutboxSource(db);
    const rows = await outbox.claim(10);
    expect(rows).toHaveLength(2);
    const claimed = await client.outboxEvent.findMany({ where: { claimedAt: { not: null } } });
    expect(claimed).toHaveLength(2);
    expect(await outbox.claim(10)).toEqual([]);
    await outbox.settle({ sent: [], failed: [], untried: ids(rows) });
    expect(await outbox.claim(10)).toHaveLength(2);
  });

  it("counts an attempt only for the failed row, and gives every unsent row back", async () => {
    await client.outboxEvent.createMany({ data: [outboxEvent("x", new Date(Date.now() - 1)), outboxEvent("y")] });
    const outbox = createOutboxSource(db);
    const [x, y] = await outbox.claim(10);
    await outbox.settle({ sent: [], failed: [x!.id], untried: [y!.id] });
    const rows = await client.outboxEvent.findMany({ orderBy: { subject: "asc" } });
    expect(rows.map((r) => [r.subject, r.attempts, r.claimedAt, r.sentAt])).toEqual([["x", 1, null, null], ["y", 0, null, null]]);
    expect(await outbox.pending()).toBe(2);
  });

  it("lets another relay claim the rows of a claim older than the lease (its relay died)", async () => {
    const row = outboxEvent("orphaned");
    await client.outboxEvent.create({ data: row });
    const outbox = createOutboxSource(db);
    expect(await outbox.claim(10)).toHaveLength(1);
    await client.outboxEvent.update({ where: { id: row.id }, data: { claimedAt: new Date(Date.now() - outbox.leaseMs + 5_000) } });
    expect(await outbox.claim(10)).toEqual([]);
    await client.outboxEvent.update({ where: { id: row.id }, data: { claimedAt: new Date(Date.now() - outbox.leaseMs - 1_000) } });
    expect(ids(await outbox.claim(10))).toEqual([row.id]);
  });

  it("claims through the index of unsent rows in claim order, so sent rows cost a claim nothing", async () => {
    const sentAt = new Date();
    await client.outboxEvent.createMany({ data: Array.from({ length: 3000 }, (_, i) => ({ ...outboxEvent(`sent${i}`), sentAt })) });
    await client.outboxEvent.createMany({ data: [outboxEvent("pending")] });
    await client.$executeRawUnsafe("ANALYZE outbox_event");
    const plan = (await client.$queryRawUnsafe<{ "QUERY PLAN": string }[]>(`EXPLAIN ${claimSql}`, 100, 15_000)).map((row) => row["QUERY PLAN"]).join("\n");
    // The LIMIT reads the pending index from its start and stops: no sort of every candidate first.
    expect(plan).toMatch(/Limit[\s\S]*->\s+LockRows[\s\S]*->\s+Index Scan using outbox_event_pending_idx/);
    expect(plan.split("Index Scan using outbox_event_pending_idx")[0]).not.toMatch(/->\s+Sort\s[\s\S]*LockRows/);
  });

  it("claims nothing when nothing is pending", async () => {
    expect(await createOutboxSource(db).claim(10)).toEqual([]);
  });

  it("prunes only sent rows older than the cutoff", async () => {
    const [old, recent, unsent] = [outboxEvent("old"), outboxEvent("recent"), outboxEvent("unsent")];
    await client.outboxEvent.createMany({ data: [old, recent, unsent] });
    await client.outboxEvent.update({ where: { id: old.id }, data: { sentAt: new Date(Date.now() - 3_600_000) } });
    await client.outboxEvent.update({ where: { id: recent.id }, data: { sentAt: new Date() } });
    expect(await createOutboxSource(db).prune(60_000)).toBe(1);
    const left = await client.outboxEvent.findMany({ orderBy: { subject: "asc" } });
    expect(left.map((r) => r.subject)).toEqual(["recent", "unsent"]);
  });

  it("ping answers on an open database and fails on a closed one", async () => {
    await expect(ping(client)).resolves.toBeUndefined();
    const gone = await openDatabase({ schema: "x", dataDir: "memory://" });
    const goneClient = clientFor(gone);
    await gone.close();
    await expect(ping(goneClient)).rejects.toThrow();
  });
});
