import { createMemoryKeyValue, type KeyValue, type Logger } from "@fit/bus";
import { describe, expect, it } from "vitest";
import { sharedCounterStore } from "../../src/auth/shared-counter-store.ts";

const silent: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/** A replica's store over `shared`, with incr as a promise. */
const replica = (shared: KeyValue) => {
  const Store = sharedCounterStore({ shared, maxAgeMs: 60_000, logger: silent });
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
});
