import { setTimeout as delay } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { readyz, startProcessPlatform } from "./support/process-platform.ts";
import { waitFor } from "./support/wait.ts";
import { byStatus, checkWrites, ok, startLoad, type Sample } from "./support/write-load.ts";

/*
 * PostgreSQL stopped and started again under the running services (docs/security.md#20-nats-and-postgresql-outages):
 * every process keeps running, callers get a fast 503 in the envelope while the database is gone (never a 500,
 * a 429 or a hang), readiness follows the database, and once it is back nothing acknowledged is missing: every
 * 2xx write can be read, every outbox row reaches JetStream, every daily total is the sum of its items
 * (docs/security.md#15-events-leave-through-the-outbox, #17-a-projection-equals-the-sum-of-its-items).
 */

const FAIL_FAST_MS = 5_000;
// Long enough for every loop to send several requests into the gap, short enough for the time budget.
const OUTAGE_MS = 2_000;
const STEADY_MS = 500;
const PROCESSES = ["bodyMetrics", "nutrition", "gateway"] as const;
/** A failure as callers must see it: 503 with the `{"error", "detail"?}` envelope. */
const isEnvelope503 = (s: Sample) => s.status === 503 && typeof (s.body as { error?: unknown } | undefined)?.error === "string";
const show = (s: Sample) => `${s.via}→${s.target} ${s.write ? "write" : "read"}: ${s.status} in ${s.endedAt - s.startedAt} ms ${JSON.stringify(s.body)}`;
const latency = (s: Sample) => s.endedAt - s.startedAt;

describe("PostgreSQL restarted while writes flow", () => {
  // What is provoked exactly: `pg_ctl stop -m fast` (sessions terminated, a checkpoint: a planned restart), then
  // `-m immediate` (every backend ends at once; the next start syncs the data folder and runs crash recovery,
  // refusing connections meanwhile: a crashed server), each down ~2 s while four accounts write weigh-ins and
  // food items at a modest rate, two through the gateway (whose identity store is on the same server) and two
  // straight to the services. Nothing but PostgreSQL is restarted. Not provoked: a server that hangs without
  // closing connections (a network partition), which only the pool's timeouts would end.
  it("answers 503 at once while it is down, recovers by itself and loses no acknowledged write or event", async () => {
    const platform = await startProcessPlatform();
    const pids = PROCESSES.map((name) => platform.pid(name));
    const accounts = await Promise.all([1, 2, 3, 4].map(() => platform.account()));
    const loops = accounts.flatMap((account, i) =>
      (["body-metrics", "nutrition"] as const).map((target) => ({ account, target, via: i < 2 ? ("gateway" as const) : ("direct" as const) })),
    );
    const load = startLoad(platform, loops, 100);
    // Ready (or not) as one; a process that died is no state to wait for: it ends the wait and fails the test.
    const everyReady = (status: number) => async () => {
      const dead = PROCESSES.filter((name) => !platform.running(name));
      if (dead.length > 0) return `exited: ${dead.join(", ")}`;
      return (await Promise.all(Object.values(platform.urls).map(readyz))).every((s) => s === status) ? "ok" : undefined;
    };
    const okOnEveryLoop = (since: number) => async () =>
      new Set(load.samples.filter((s) => ok(s) && s.write && s.startedAt >= since).map((s) => `${s.account}${s.target}`)).size === loops.length || undefined;

    const outages: { mode: string; stopAt: number; downAt: number; restartAt: number; upAt: number; readyAt: number }[] = [];
    await waitFor("a 2xx write on every loop", okOnEveryLoop(0));
    for (const mode of ["fast", "immediate"] as const) {
      await delay(STEADY_MS); // the load runs steadily before the fault
      const stopAt = Date.now();
      await platform.postgres.stop(mode);
      const downAt = Date.now();
      expect(await waitFor(`every /readyz to answer 503 after stop -m ${mode}`, everyReady(503), 10_000), "processes").toBe("ok");
      await delay(Math.max(0, OUTAGE_MS - (Date.now() - downAt))); // ...and on through the gap
      const restartAt = Date.now();
      await platform.postgres.start();
      const upAt = Date.now();
      // Nothing is restarted: the pools drop their dead connections and open new ones on demand.
      expect(await waitFor(`every /readyz to answer 200 after stop -m ${mode}`, everyReady(200), 15_000), "processes").toBe("ok");
      outages.push({ mode, stopAt, downAt, restartAt, upAt, readyAt: Date.now() });
      await waitFor(`a 2xx write on every loop after stop -m ${mode}`, okOnEveryLoop(upAt));
    }
    await delay(STEADY_MS);
    await load.stop();

    for (const { mode, stopAt, downAt, restartAt, upAt, readyAt } of outages) {
      // Sent while PostgreSQL was stopping, stopped or starting (recovering): each must fail fast with a 503, or succeed.
      const gap = load.samples.filter((s) => s.startedAt >= stopAt && s.startedAt < upAt);
      const firstOk = Math.min(...load.samples.filter((s) => ok(s) && s.startedAt >= upAt).map((s) => s.endedAt));
      console.log(
        `[postgres-faults] stop -m ${mode}: stop took ${downAt - stopAt} ms, down ${restartAt - downAt} ms, start took ${upAt - restartAt} ms; ` +
          `requests sent meanwhile: ${gap.length} (${byStatus(gap)}), slowest ${Math.max(...gap.map(latency))} ms; ` +
          `after PostgreSQL answered again: /readyz 200 in ${readyAt - upAt} ms, first 2xx in ${firstOk - upAt} ms`,
      );
      expect.soft(gap.filter((s) => !isEnvelope503(s)).length, `stop -m ${mode}: requests failed while PostgreSQL was down`).toBeLessThan(gap.length);
      expect.soft(gap.filter((s) => (!ok(s) && !isEnvelope503(s)) || latency(s) >= FAIL_FAST_MS).map(show), `stop -m ${mode}: not a fast 503`).toEqual([]);
    }
    // Before, during and after the outages alike: a failure is a 503 in the envelope, never a 500, a 429 or a reset.
    const failed = load.samples.filter((s) => !ok(s));
    expect.soft(failed.filter((s) => !isEnvelope503(s)).map(show), "failures other than a 503 in the envelope").toEqual([]);
    expect.soft(PROCESSES.filter((name, i) => !platform.running(name) || platform.pid(name) !== pids[i]), "processes that died or were restarted").toEqual([]);

    const writes = await checkWrites(platform, accounts, load.samples);
    const db = await platform.openDb();
    const ids = accounts.map((a) => a.accountId);
    // Settled: every row relayed (JetStream holds one message per row: Nats-Msg-Id = event id) and applied.
    const settled = async () => {
      const [bm, nu] = [await db.outbox("body_metrics"), await db.outbox("nutrition")];
      const [bmStream, nuStream] = [await platform.streamMessages("BODY_METRICS"), await platform.streamMessages("NUTRITION")];
      return {
        unsent: bm.unsent + nu.unsent,
        eventsLost: Math.max(0, bm.total - bmStream) + Math.max(0, nu.total - nuStream),
        duplicates: Math.max(0, bmStream - bm.total) + Math.max(0, nuStream - nu.total),
        mismatchedDays: (await db.nutrition.mismatchedDays(ids)).length,
        pendingDays: await db.nutrition.pendingDays(ids),
        rows: `${bm.total} body_metrics, ${nu.total} nutrition`,
      };
    };
    await expect
      .poll(async () => ({ ...(await settled()), rows: "" }), { timeout: 20_000, interval: 250 })
      .toEqual({ unsent: 0, eventsLost: 0, duplicates: 0, mismatchedDays: 0, pendingDays: 0, rows: "" });
    const final = await settled();
    console.log(
      `[postgres-faults] requests sent: ${load.samples.length} (${byStatus(load.samples)}); acknowledged writes: ${writes.acked}, ` +
        `lost: ${writes.lost.length}, failed but stored anyway: ${writes.failedButStored}; outbox rows: ${final.rows}, ` +
        `unsent: ${final.unsent}, events lost: ${final.eventsLost}; totals mismatched: ${final.mismatchedDays}`,
    );
    expect(writes.lost.map(show), "acknowledged writes that cannot be read back").toEqual([]);
  }, 90_000);
});
