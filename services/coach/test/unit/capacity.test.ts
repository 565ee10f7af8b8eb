import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { createGate } from "../../src/handlers/capacity.ts";

/** Runs `count` calls through the gate at once; each notes when it started and ends after `holdMs`. */
const startTogether = (gate: ReturnType<typeof createGate>, count: number, holdMs = 0) => {
  const submitted = performance.now();
  const starts: number[] = [];
  const calls = Array.from({ length: count }, () =>
    gate(async () => {
      starts.push(performance.now() - submitted);
      await sleep(holdMs);
    }),
  );
  return { starts, settled: Promise.allSettled(calls) };
};

describe("the coach's gate", () => {
  it("starts calls that arrive together at least the spacing apart, and a call after a pause at once", async () => {
    const gate = createGate({ concurrency: 10, queue: 10, spacingMs: 25 });
    const together = startTogether(gate, 4);
    await together.settled;
    expect(together.starts[0]).toBeLessThan(10);
    for (let i = 1; i < 4; i++) expect(together.starts[i]! - together.starts[i - 1]!, `start ${i}`).toBeGreaterThanOrEqual(23);

    await sleep(60);
    const alone = startTogether(gate, 1);
    await alone.settled;
    expect(alone.starts[0]).toBeLessThan(10);
  });

  it("starts every call at once without a spacing", async () => {
    const gate = createGate({ concurrency: 10, queue: 10, spacingMs: 0 });
    const together = startTogether(gate, 5);
    await together.settled;
    expect(Math.max(...together.starts)).toBeLessThan(10);
  });

  it("runs at most its concurrency, queues the next ones and refuses past the queue as busy", async () => {
    const gate = createGate({ concurrency: 2, queue: 1, spacingMs: 0 });
    const calls = startTogether(gate, 4, 40);
    const outcomes = await calls.settled;
    expect(outcomes.filter((o) => o.status === "rejected")).toEqual([
      { status: "rejected", reason: expect.objectContaining({ code: "rate_limited", retryAfterS: 1 }) },
    ]);
    expect(calls.starts).toHaveLength(3);
    expect(calls.starts[2]).toBeGreaterThanOrEqual(38);
  });
});
