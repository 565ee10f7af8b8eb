import { AppError, type EventEnvelope } from "@fit/contracts";
import { afterEach, describe, expect, it } from "vitest";
import { DUPLICATE_WINDOW_MS, startOutboxRelay, type OutboxRelay, type OutboxRelayOptions } from "../../src/index.ts";
import { captureLogger, FakeOutbox, sleep, waitFor } from "../support.ts";

const envelope = (n: number): EventEnvelope => ({
  id: crypto.randomUUID(),
  type: "test.relayed",
  occurredAt: new Date().toISOString(),
  data: { n },
});

describe("outbox relay", () => {
  let relay: OutboxRelay | undefined;
  afterEach(() => relay?.stop());

  const start = (outbox: FakeOutbox, publish: OutboxRelayOptions["bus"]["publish"], opts: Partial<OutboxRelayOptions> = {}) => {
    relay = startOutboxRelay({ bus: { publish }, source: outbox, logger: captureLogger().logger, ...opts });
    return relay;
  };

  it("runs a pass at once when kicked instead of waiting for the next poll", async () => {
    const outbox = new FakeOutbox();
    const sent: unknown[] = [];
    const r = start(outbox, async (_s, e) => void sent.push(e), { intervalMs: 60_000 });
    await waitFor(() => outbox.claims === 1);
    outbox.add("test.relayed", envelope(1));
    r.kick();
    await waitFor(() => sent.length === 1, 500);
  });

  it("started idle, waits idleIntervalMs for its first pass, unless a kick comes first", async () => {
    const outbox = new FakeOutbox();
    outbox.add("test.relayed", envelope(1)); // left by a previous run
    const sent: unknown[] = [];
    const waiting = start(outbox, async (_s, e) => void sent.push(e), { startIdle: true, idleIntervalMs: 150 });
    await sleep(100);
    expect(outbox.claims).toBe(0);
    await waitFor(() => sent.length === 1, 500);
    await waiting.stop();

    const kicked = new FakeOutbox();
    const r = start(kicked, async (_s, e) => void sent.push(e), { startIdle: true, idleIntervalMs: 60_000 });
    kicked.add("test.relayed", envelope(2));
    r.kick();
    await waitFor(() => sent.length === 2, 500);
  });

  it("carries the writes kicked within coalesceMs in one pass", async () => {
    const outbox = new FakeOutbox();
    const sent: number[] = [];
    const r = start(outbox, async (_s, e) => void sent.push((e.data as { n: number }).n), { intervalMs: 60_000, coalesceMs: 100 });
    await waitFor(() => outbox.claims === 1);
    for (let n = 0; n < 3; n++) {
      outbox.add("test.relayed", envelope(n));
      r.kick();
      await sleep(10);
    }
    expect(sent).toEqual([]);
    await waitFor(() => sent.length === 3, 500);
    expect(sent).toEqual([0, 1, 2]);
    expect(outbox.claims).toBe(2);
  });

  it("polls less often while it finds nothing, up to idleIntervalMs, and every intervalMs again once a pass finds rows", async () => {
    const outbox = new FakeOutbox();
    const claimedAt: number[] = [];
    const claim = outbox.claim.bind(outbox);
    outbox.claim = async (limit) => (claimedAt.push(performance.now()), claim(limit));
    const sent: unknown[] = [];
    start(outbox, async (_s, e) => void sent.push(e), { intervalMs: 10, idleIntervalMs: 80 });
    await waitFor(() => claimedAt.length === 7, 2_000);
    const gaps = (from: number) => claimedAt.slice(from + 1).map((t, i) => t - claimedAt[from + i]!);
    const idle = gaps(0);
    [9, 18, 36, 72, 72, 72].forEach((least, i) => expect(idle[i]).toBeGreaterThanOrEqual(least));
    expect(Math.max(...idle)).toBeLessThan(200);

    outbox.add("test.relayed", envelope(1)); // no kick: only the poll finds it
    await waitFor(() => sent.length === 1, 500);
    const found = claimedAt.length - 1;
    await waitFor(() => claimedAt.length === found + 3, 500);
    // After the pass that found it, and after the first empty one since: both intervalMs again.
    for (const gap of gaps(found).slice(0, 2)) expect(gap).toBeLessThan(60);
  });

  it("drains a backlog in full batches without waiting between them", async () => {
    const outbox = new FakeOutbox();
    for (let n = 0; n < 7; n++) outbox.add("test.relayed", envelope(n));
    const sent: number[] = [];
    start(outbox, async (_s, e) => void sent.push((e.data as { n: number }).n), { intervalMs: 60_000, batchSize: 2 });
    await waitFor(() => sent.length === 7, 500);
    expect(sent).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it("backs off exponentially while publishing fails, up to maxBackoffMs", async () => {
    const outbox = new FakeOutbox();
    outbox.add("test.relayed", envelope(1));
    const attempts: number[] = [];
    start(outbox, async () => {
      attempts.push(Date.now());
      throw new AppError("unavailable", "down");
    }, { intervalMs: 10, maxBackoffMs: 80 });
    await waitFor(() => attempts.length === 6, 2_000);
    const gaps = attempts.slice(1).map((t, i) => t - attempts[i]!);
    expect(gaps[0]).toBeGreaterThanOrEqual(15); // 20 ms after the first failure, not the 10 ms poll
    expect(gaps[1]).toBeGreaterThanOrEqual(35);
    for (const gap of gaps.slice(3)) expect(gap).toBeGreaterThanOrEqual(75);
    for (const gap of gaps) expect(gap).toBeLessThan(200);
    expect(await outbox.pending()).toBe(1);
  });

  it("ignores kicks while backing off, so writes do not hammer a failing bus", async () => {
    const outbox = new FakeOutbox();
    outbox.add("test.relayed", envelope(1));
    let attempts = 0;
    const r = start(outbox, async () => {
      attempts++;
      throw new AppError("unavailable", "down");
    }, { intervalMs: 100, maxBackoffMs: 1_000 });
    await waitFor(() => attempts === 1);
    for (let i = 0; i < 10; i++) {
      r.kick();
      await sleep(5);
    }
    expect(attempts).toBe(1);
  });

  it("finishes the pass in progress on stop and starts no other", async () => {
    const outbox = new FakeOutbox();
    outbox.add("test.relayed", envelope(1));
    const r = start(outbox, () => sleep(100), { intervalMs: 10 });
    await waitFor(() => outbox.claims === 1);
    await r.stop();
    expect(await outbox.pending()).toBe(0);
    const claims = outbox.claims;
    await sleep(50);
    expect(outbox.claims).toBe(claims);
  });

  it("publishes a window of rows without waiting for each one's ack, in order", async () => {
    const outbox = new FakeOutbox();
    for (let n = 0; n < 5; n++) outbox.add("test.relayed", envelope(n));
    const started: number[] = [];
    let release = () => {};
    const acks = new Promise<void>((resolve) => (release = resolve));
    let acked = 0;
    start(outbox, async (_s, e) => {
      started.push((e.data as { n: number }).n);
      await acks;
      acked++;
    });
    await waitFor(() => started.length === 5);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    release();
    await waitFor(() => acked === 5);
    await sleep(50);
    expect(await outbox.pending()).toBe(0);
  });

  it("marks a failed window's acknowledged rows sent and sends its failed row and the windows after it again", async () => {
    const outbox = new FakeOutbox();
    for (let n = 0; n < 5; n++) outbox.add("test.relayed", envelope(n));
    const published: number[] = [];
    let failNext = true;
    start(outbox, async (_s, e) => {
      const { n } = e.data as { n: number };
      if (n === 0 && failNext) {
        failNext = false;
        throw new AppError("unavailable", "nats restarting");
      }
      published.push(n);
    }, { intervalMs: 10, maxBackoffMs: 20, inFlight: 2 });
    await waitFor(() => published.length === 5);
    // Row 1 went out beside the failed row 0, so 0 follows it; rows 2-4, after the failed window, keep their order.
    expect(published).toEqual([1, 0, 2, 3, 4]);
    expect(await outbox.pending()).toBe(0);
  });

  it("gives back the rows of a claim it could not start within half the lease, and sends them in a later pass", async () => {
    const outbox = new FakeOutbox(100);
    for (let n = 0; n < 6; n++) outbox.add("test.relayed", envelope(n));
    const published: number[] = [];
    const claimSizes: number[] = [];
    const claim = outbox.claim.bind(outbox);
    outbox.claim = async (limit) => {
      const rows = await claim(limit);
      if (rows.length) claimSizes.push(rows.length);
      return rows;
    };
    start(outbox, async (_s, e) => {
      await sleep(30);
      published.push((e.data as { n: number }).n);
    }, { intervalMs: 10, inFlight: 1 });
    await waitFor(() => published.length === 6, 2_000);
    expect(published).toEqual([0, 1, 2, 3, 4, 5]);
    expect(claimSizes[0]).toBe(6);
    expect(claimSizes.length).toBeGreaterThan(1); // the first claim was cut short
  });

  it("refuses a back-off that, with the lease, would reach past the stream's duplicate window", () => {
    expect(() => start(new FakeOutbox(), async () => {}, { maxBackoffMs: DUPLICATE_WINDOW_MS })).toThrow(RangeError);
  });
});
