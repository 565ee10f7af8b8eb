import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createOutboxSource, migrate, openDatabase, ping, type Database, type OutboxRow } from "../../src/index.ts";
import { clientFor, fixture, outboxEvent, sleep } from "../helpers.ts";

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

  it("hands unsent rows to send oldest first and marks them sent", async () => {
    const t = Date.now();
    await client.outboxEvent.createMany({
      data: [outboxEvent("b", new Date(t - 1000)), outboxEvent("c", new Date(t)), outboxEvent("a", new Date(t - 2000))],
    });
    const seen: OutboxRow[] = [];
    const claimed = await createOutboxSource(db).claimBatch(10, async (rows) => void seen.push(...rows));
    expect(claimed).toBe(3);
    expect(seen.map((r) => r.subject)).toEqual(["a", "b", "c"]);
    expect(seen[0]?.payload).toMatchObject({ subject: "a" });
    const sent = await client.outboxEvent.findMany({ where: { sentAt: { not: null } } });
    expect(sent).toHaveLength(3);
    for (const row of sent) expect(Math.abs(row.sentAt!.getTime() - Date.now())).toBeLessThan(60_000);
  });

  it("claims at most limit rows and leaves the rest pending", async () => {
    await client.outboxEvent.createMany({ data: [1, 2, 3, 4, 5].map((i) => outboxEvent(`s${i}`)) });
    const outbox = createOutboxSource(db);
    expect(await outbox.claimBatch(2, async () => {})).toBe(2);
    expect(await outbox.pending()).toBe(3);
  });

  it("marks nothing sent when send throws, counts the attempt and rethrows", async () => {
    await client.outboxEvent.createMany({ data: [outboxEvent("x"), outboxEvent("y")] });
    const outbox = createOutboxSource(db);
    const boom = new Error("bus down");
    await expect(outbox.claimBatch(10, async () => Promise.reject(boom))).rejects.toBe(boom);
    expect(await outbox.pending()).toBe(2);
    const rows = await client.outboxEvent.findMany();
    expect(rows.map((r) => r.attempts)).toEqual([1, 1]);
    expect(await outbox.claimBatch(10, async () => {})).toBe(2);
    expect(await outbox.pending()).toBe(0);
  });

  it("does not call send when nothing is pending", async () => {
    let calls = 0;
    expect(await createOutboxSource(db).claimBatch(10, async () => void calls++)).toBe(0);
    expect(calls).toBe(0);
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

  // PGlite is one connection: while a claim's transaction is open (send running), other queries of the same
  // client queue behind it and run once it commits. Observed: no deadlock, but no overlap either. A send
  // that itself queried through the client (not the transaction) would wait for its own transaction.
  it("queues other queries of the same client behind an open claim instead of deadlocking", async () => {
    await client.outboxEvent.create({ data: outboxEvent("slow") });
    const outbox = createOutboxSource(db);
    const order: string[] = [];
    let sendStarted!: () => void;
    const started = new Promise<void>((resolve) => (sendStarted = resolve));
    const claim = outbox.claimBatch(10, async () => {
      sendStarted();
      await sleep(300);
      order.push("send done");
    });
    await started;
    const other = client.note.create({ data: { text: "while claiming" } }).then(() => order.push("note written"));
    const count = outbox.pending().then((n) => order.push(`pending ${n}`));
    await Promise.all([claim, other, count]);
    expect(order[0]).toBe("send done");
    expect(order.slice(1).sort()).toEqual(["note written", "pending 0"]);
  });

  it("ping answers on an open database and fails on a closed one", async () => {
    await expect(ping(client)).resolves.toBeUndefined();
    const gone = await openDatabase({ schema: "x", dataDir: "memory://" });
    const goneClient = clientFor(gone);
    await gone.close();
    await expect(ping(goneClient)).rejects.toThrow();
  });
});
