import { hash } from "node:crypto";
import { createMemoryKeyValue, type KeyValue, type Logger } from "@fit/bus";
import { describe, expect, it } from "vitest";
import { sharedCounterStore } from "../../src/auth/shared-counter-store.ts";

const silent: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/** A replica's store over `shared`, with incr as a promise. */
const replica = (shared: KeyValue, logger: Logger = silent) => {
  const Store = sharedCounterStore({ shared, maxAgeMs: 60_000, logger });
  const store = new Store({});
  return (key: string, timeWindow: number, max: number) =>
    new Promise<{ current: number; ttl: number }>((resolve, reject) =>
      store.incr(key, (err, result) => (err || !result ? reject(err ?? new Error("no result")) : resolve(result)), timeWindow, max),
    );
};

describe("shared rate-limit counters", () => {
  it("count every one of many concurrent requests from two replicas exactly once, up to the limit", async () => {
    const shared = createMemoryKeyValue({ maxAgeMs: 60_000 });
    const [one, two] = [replica(shared), replica(shared)];
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? one : two)("account:a", 60_000, 30)));
    const allowed = results.filter((r) => r.current <= 30).map((r) => r.current);
    expect(allowed.sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(results.filter((r) => r.current > 30)).toHaveLength(10);
  });

  it("count a replica's concurrent requests for one key in a write or two, not one write each", async () => {
    const shared = createMemoryKeyValue({ maxAgeMs: 60_000 });
    let writes = 0;
    const counting = { ...shared, compareAndSet: (...args: Parameters<typeof shared.compareAndSet>) => (writes++, shared.compareAndSet(...args)) };
    const count = replica(counting);
    const results = await Promise.all(Array.from({ length: 40 }, () => count("account:busy", 60_000, 100)));
    expect(results.map((r) => r.current).sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(writes).toBeLessThanOrEqual(2);
  });

  /** 2 000 requests from two replicas in waves of 4 concurrent each: one write per wave and replica without leases. */
  const busyKey = async (max: number) => {
    const shared = createMemoryKeyValue({ maxAgeMs: 60_000 });
    let writes = 0;
    const counting = { ...shared, compareAndSet: (...args: Parameters<typeof shared.compareAndSet>) => (writes++, shared.compareAndSet(...args)) };
    const [one, two] = [replica(counting), replica(counting)];
    const numbers: number[] = [];
    for (let wave = 0; wave < 250; wave++) {
      const results = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? one : two)("account:busy", 60_000, max)));
      numbers.push(...results.map((r) => r.current));
    }
    return { numbers, writes };
  };

  it("serve a busy key from leases: far fewer writes than requests", async () => {
    const { numbers, writes } = await busyKey(1_000_000);
    expect(new Set(numbers).size).toBe(2_000);
    expect(writes).toBeLessThan(100);
  });

  it("hand out every number once and none past the limit, leaving a few unused at most", async () => {
    const { numbers } = await busyKey(1_500);
    const allowed = numbers.filter((n) => n <= 1_500);
    expect(new Set(allowed).size).toBe(allowed.length);
    // A lease is at most a 64th of what is left of the limit.
    expect(allowed.length).toBeGreaterThan(1_450);
  });

  it("refuse a key whose window is full without asking the bucket again until the window closes", async () => {
    const shared = createMemoryKeyValue({ maxAgeMs: 60_000 });
    let reads = 0;
    const count = replica({ ...shared, get: (key: string) => (reads++, shared.get(key)) });
    for (let i = 0; i < 3; i++) await count("address:flood", 200, 2);
    const readsWhenFull = reads;
    const refused = await Promise.all(Array.from({ length: 50 }, () => count("address:flood", 200, 2)));
    expect(refused.every((r) => r.current > 2)).toBe(true);
    expect(reads).toBe(readsWhenFull);
    await new Promise((resolve) => setTimeout(resolve, 210));
    expect((await count("address:flood", 200, 2)).current).toBe(1);
  });

  it("answer the time left in the window, and open a new window once it has closed", async () => {
    const count = replica(createMemoryKeyValue({ maxAgeMs: 60_000 }));
    const first = await count("k", 200, 1);
    expect(first.current).toBe(1);
    expect(first.ttl).toBeGreaterThan(0);
    expect(first.ttl).toBeLessThanOrEqual(200);
    expect((await count("k", 200, 1)).current).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 210)); // the window's length is the condition
    expect((await count("k", 200, 1)).current).toBe(1);
  });

  it("keep limiters' keys apart", async () => {
    const count = replica(createMemoryKeyValue({ maxAgeMs: 60_000 }));
    await count("account:a", 60_000, 5);
    expect((await count("account:b", 60_000, 5)).current).toBe(1);
  });

  // A deleted or purged key reads as an empty value (NATS's marker), and anyone who could write the bucket could
  // leave anything there: neither may turn sharing off or be counted as a window (issue 36).
  it.each([
    ["a delete marker", ""],
    ["null", "null"],
    ["not JSON", "{n:1"],
    ["a count that is not a number", JSON.stringify({ n: "9", start: Date.now() })],
    ["a negative count", JSON.stringify({ n: -1_000, start: Date.now() })],
    ["a window that starts in the future", JSON.stringify({ n: 5, start: Date.now() + 3_600_000 })],
  ])("take %s where a window was as no open window, and keep counting in the shared bucket", async (_, stored) => {
    const shared = createMemoryKeyValue({ maxAgeMs: 60_000 });
    const warnings: string[] = [];
    const logger = { ...silent, warn: (_: object, message: string) => void warnings.push(message) };
    const [one, two] = [replica(shared, logger), replica(shared, logger)];
    const key = "account:tampered";
    const stored_at = hash("sha256", key, "base64url");
    await one(key, 60_000, 10);
    const entry = await shared.get(stored_at);
    expect(await shared.compareAndSet(stored_at, stored, entry!.revision)).not.toBeNull();

    expect((await two(key, 60_000, 10)).current).toBe(1);
    expect(JSON.parse((await shared.get(stored_at))!.value)).toMatchObject({ n: 1 });
    expect(warnings).toEqual([]);
  });
});
