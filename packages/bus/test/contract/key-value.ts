import { AppError } from "@fit/contracts";
import { expect, it } from "vitest";
import type { ContractContext } from "../bus-contract.ts";
import { rejection } from "../support.ts";

const HOUR = 3_600_000;

export const keyValueContract = (ctx: ContractContext): void => {
  it("creates a key only if it has no entry, and updates it only from the revision last read", async () => {
    const kv = await (await ctx.harness.open([])).keyValue(ctx.names.bucket("cas"), { maxAgeMs: HOUR });
    expect(await kv.get("counter")).toBeNull();
    const created = await kv.compareAndSet("counter", "1", null);
    expect(created).toEqual(expect.any(Number));
    expect(await kv.compareAndSet("counter", "other", null)).toBeNull();
    const updated = await kv.compareAndSet("counter", "2", created);
    expect(updated).toBeGreaterThan(created!);
    expect(await kv.compareAndSet("counter", "stale", created)).toBeNull();
    expect(await kv.get("counter")).toEqual({ value: "2", revision: updated });
  });

  it("is shared by every replica, and only one of two writers from the same revision wins", async () => {
    const bucket = ctx.names.bucket("shared");
    const one = await (await ctx.harness.open([])).keyValue(bucket, { maxAgeMs: HOUR });
    const two = await (await ctx.harness.open([])).keyValue(bucket, { maxAgeMs: HOUR });
    const revision = await one.compareAndSet("k", "from one", null);
    expect(await two.get("k")).toEqual({ value: "from one", revision });
    const outcomes = await Promise.all([one.compareAndSet("k", "a", revision), two.compareAndSet("k", "b", revision)]);
    expect(outcomes.filter((r) => r === null)).toHaveLength(1);
    const winner = outcomes[0] === null ? "b" : "a";
    expect((await one.get("k"))?.value).toBe(winner);
  });

  it("keeps buckets apart", async () => {
    const bus = await ctx.harness.open([]);
    const a = await bus.keyValue(ctx.names.bucket("a"), { maxAgeMs: HOUR });
    const b = await bus.keyValue(ctx.names.bucket("b"), { maxAgeMs: HOUR });
    await a.compareAndSet("k", "in a", null);
    expect(await b.get("k")).toBeNull();
  });

  it("drops an entry not written for maxAgeMs", async () => {
    const kv = await (await ctx.harness.open([])).keyValue(ctx.names.bucket("aging"), { maxAgeMs: 300 });
    await kv.compareAndSet("k", "v", null);
    expect(await kv.get("k")).not.toBeNull();
    await expect.poll(() => kv.get("k"), { timeout: 5_000, interval: 50 }).toBeNull();
    expect(await kv.compareAndSet("k", "again", null)).toEqual(expect.any(Number));
  });

  it("refuses keys and bucket names NATS would refuse, in both buses", async () => {
    const bus = await ctx.harness.open([]);
    const kv = await bus.keyValue(ctx.names.bucket("names"), { maxAgeMs: HOUR });
    for (const key of ["a:b", "a b", ".a", "a.", "é"]) {
      const err = await rejection(kv.compareAndSet(key, "v", null));
      expect(err, key).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe("validation");
    }
    const err = await rejection(bus.keyValue("has.dot", { maxAgeMs: HOUR }));
    expect((err as AppError).code).toBe("validation");
  });
};
