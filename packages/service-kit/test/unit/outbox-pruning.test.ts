import { afterEach, describe, expect, it, vi } from "vitest";
import { DUPLICATE_WINDOW_MS } from "@fit/bus";
import { startOutboxPruning } from "../../src/outbox-pruning.ts";

const recorder = () => {
  const lines: { level: string; obj: object }[] = [];
  return { lines, logger: { info: (obj: object) => void lines.push({ level: "info", obj }), warn: (obj: object) => void lines.push({ level: "warn", obj }) } };
};

afterEach(() => vi.useRealTimers());

describe("outbox pruning", () => {
  it("prunes a minute after start and every hour with the retention it was given, and stops", async () => {
    vi.useFakeTimers();
    const calls: number[] = [];
    const outbox = { prune: async (olderThanMs: number) => (calls.push(olderThanMs), 3) };
    const { lines, logger } = recorder();
    const pruning = startOutboxPruning(outbox, 7_200_000, logger);
    await vi.advanceTimersByTimeAsync(59_999);
    expect(calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1 + 3_600_000);
    expect(calls).toEqual([7_200_000, 7_200_000]);
    expect(lines).toEqual([{ level: "info", obj: { deleted: 3 } }, { level: "info", obj: { deleted: 3 } }]);
    await pruning.stop();
    await vi.advanceTimersByTimeAsync(3_600_000 * 3);
    expect(calls).toHaveLength(2);
  });

  it("logs a failed pass and tries again at the next", async () => {
    vi.useFakeTimers();
    let attempts = 0;
    const outbox = { prune: async () => (++attempts === 1 ? Promise.reject(new Error("database away")) : 0) };
    const { lines, logger } = recorder();
    const pruning = startOutboxPruning(outbox, 0, logger, { firstAfterMs: 0 });
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(attempts).toBe(2);
    expect(lines.map((line) => line.level)).toEqual(["warn"]);
    await pruning.stop();
  });

  it("keeps sent rows for at least the stream's duplicate window whatever retention is configured", async () => {
    const calls: number[] = [];
    const pruning = startOutboxPruning({ prune: async (olderThanMs: number) => (calls.push(olderThanMs), 0) }, 0, recorder().logger, { firstAfterMs: 0 });
    await pruning.stop();
    expect(calls).toEqual([DUPLICATE_WINDOW_MS]);
  });

  it("runs no pass when stopped before the first", async () => {
    vi.useFakeTimers();
    const calls: number[] = [];
    const pruning = startOutboxPruning({ prune: async (olderThanMs: number) => (calls.push(olderThanMs), 0) }, 0, recorder().logger);
    await vi.advanceTimersByTimeAsync(30_000);
    await pruning.stop();
    await vi.advanceTimersByTimeAsync(3_600_000 * 2);
    expect(calls).toEqual([]);
  });
});
