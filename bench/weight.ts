// pnpm bench:weight [--duration 10] [--connections 50] [--warmup 2]
// POST and GET /api/weight through the gateway of the multi-process platform (PostgreSQL + NATS), against a
// bare Fastify + pg baseline measured in the same run: absolute figures drift between runs, ratios much less.
import type pg from "pg";
import { startBaseline } from "./support/baseline.ts";
import { runBenchmark } from "./support/cleanup.ts";
import { pinning, pinSelfToLoadCpu } from "./support/cpu.ts";
import { countOf, createBenchDatabase, waitUntil, withClient } from "./support/database.ts";
import { logSummary } from "./support/logs.ts";
import { clean, measure, type LoadFigures, type LoadSpec } from "./support/load.ts";
import { memoryOf, type Memory } from "./support/proc.ts";
import { aimTable, benchOptions, fixed, phaseTable, writeResults, type Aim } from "./support/report.ts";
import { startPlatform } from "./support/services.ts";

const opts = benchOptions();
const SINGLE_SECONDS = 3;
const RSS_AIM_MB = 150;
const SCHEMAS = { gateway: "body_metrics", baseline: "bench_baseline" } as const;
pinSelfToLoadCpu();

type Side = keyof typeof SCHEMAS;
type Op = "POST" | "GET";
const SIDES = ["baseline", "gateway"] as const;
const label = (op: Op, side: Side, connections: number) => `${op} /api/weight ${side} (${connections} conn)`;

const countRows = (client: pg.Client, side: Side) => countOf(client, `SELECT count(*) AS n FROM ${SCHEMAS[side]}.weight_reading`);
const UNSENT = "SELECT count(*) AS n FROM body_metrics.outbox_event WHERE sent_at IS NULL";

/**
 * Same rows on both sides before the GET phases (the faster POST phase leaves more), freshly analyzed (autovacuum
 * may have analyzed one table and not the other), and body-metrics' outbox drained, so its relay is not still
 * publishing on the server CPU while GET is measured. Returns what it found.
 */
const levelTables = async (client: pg.Client, accountId: string) => {
  const before = { gateway: await countRows(client, "gateway"), baseline: await countRows(client, "baseline") };
  const target = Math.max(before.gateway, before.baseline);
  for (const side of SIDES) {
    await client.query(
      `INSERT INTO ${SCHEMAS[side]}.weight_reading (id, account_id, ts, weight_kg, source)
       SELECT gen_random_uuid(), $1, now() - interval '1 day' - n * interval '1 minute', 80.5, 'manual' FROM generate_series(1, $2) n`,
      [accountId, target - before[side]],
    );
    await client.query(`ANALYZE ${SCHEMAS[side]}.weight_reading`);
  }
  const outboxBacklog = await countOf(client, UNSENT);
  const drainMs = await waitUntil(async () => (await countOf(client, UNSENT)) === 0, 60_000);
  return { postedRows: before, rowsForGet: target, outboxBacklog, outboxDrainMs: drainMs };
};

await runBenchmark(async () => {
  console.log(`weight: ${opts.connections} connections, ${opts.duration} s per phase after ${opts.warmup} s warm-up; ${pinning}`);
  const db = await createBenchDatabase();
  const platform = await startPlatform(db.url);
  const { key, accountId } = await platform.account("weight");
  const baseline = await startBaseline(db.url, accountId);
  const idle = [...(await platform.memory()), { name: "baseline", memory: await memoryOf(baseline.pid) }];

  const targets: Record<Side, { url: string; headers: Record<string, string> }> = {
    gateway: { url: platform.gatewayUrl, headers: { authorization: `Bearer ${key}` } },
    baseline: { url: baseline.url, headers: {} },
  };
  const spec = (op: Op, side: Side, connections: number, duration: number): LoadSpec => {
    const { url, headers } = targets[side];
    return op === "POST"
      ? { url: `${url}/api/weight`, method: "POST", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify({ weightKg: 80.5 }), connections, duration }
      : { url: `${url}/api/weight`, method: "GET", headers, connections, duration };
  };

  // One request each first: a wrong key or route would otherwise only show as a column of non-2xx.
  for (const side of SIDES) {
    const { url, headers } = targets[side];
    const res = await fetch(`${url}/api/weight`, {
      method: "POST", headers: { ...headers, "content-type": "application/json" }, body: "{\"weightKg\":80.5}", signal: AbortSignal.timeout(10_000),
    });
    if (!res.ok) throw new Error(`${side}: POST /api/weight answered ${res.status} ${await res.text()}`);
  }

  // Baseline and gateway back to back per operation, so both meet the same machine state.
  const phases: Record<string, LoadFigures> = {};
  const watched = { ...platform.pids, baseline: baseline.pid };
  const saturate = (op: Op, side: Side) => measure(spec(op, side, opts.connections, opts.duration), opts.warmup, watched);
  for (const side of SIDES) phases[label("POST", side, opts.connections)] = await saturate("POST", side);
  const tables = await withClient(db.url, (client) => levelTables(client, accountId));
  for (const side of SIDES) phases[label("GET", side, opts.connections)] = await saturate("GET", side);
  // At 50 connections the servers are saturated and p50 is mostly queueing (about connections / throughput);
  // one connection shows what the gateway path adds to a single request.
  for (const op of ["POST", "GET"] as const) {
    for (const side of SIDES) phases[label(op, side, 1)] = await measure(spec(op, side, 1, SINGLE_SECONDS), 0, watched);
  }
  const after = [...(await platform.memory()), { name: "baseline", memory: await memoryOf(baseline.pid) }];

  const aims: Aim[] = [];
  for (const op of ["POST", "GET"] as const) {
    const [g, b] = [phases[label(op, "gateway", opts.connections)]!, phases[label(op, "baseline", opts.connections)]!];
    const trusted = clean(g) && clean(b);
    const ratio = g.okPerSec / b.okPerSec;
    const added = g.p50 - b.p50;
    aims.push({ what: `${op} throughput gateway/baseline`, value: `${fixed(ratio, 2)}x`, aim: ">= 0.5x", met: trusted ? ratio >= 0.5 : null });
    aims.push({ what: `${op} p50 gateway - baseline`, value: `${fixed(added, 0)} ms`, aim: "< 2 ms", met: trusted ? added < 2 : null });
  }
  const rss = (m: Memory | null | undefined) => m?.rssMb ?? NaN;
  for (const { name, memory } of after.filter((x) => x.name !== "baseline")) {
    aims.push({ what: `${name} VmRSS after the run`, value: `${fixed(rss(memory))} MB`, aim: `< ${RSS_AIM_MB} MB`, met: rss(memory) < RSS_AIM_MB });
  }
  const single = (op: Op) => phases[label(op, "gateway", 1)]!.p50 - phases[label(op, "baseline", 1)]!.p50;

  console.log(`\nPOST phases stored ${tables.postedRows.gateway} (gateway) / ${tables.postedRows.baseline} (baseline) readings; both topped up to ${tables.rowsForGet} for GET`);
  console.log(`body-metrics outbox after POST: ${tables.outboxBacklog} unsent, drained in ${tables.outboxDrainMs === null ? "> 60 s" : `${fixed(tables.outboxDrainMs / 1000)} s`}\n`);
  console.log(phaseTable(phases));
  console.log(`\n${aimTable(aims)}`);
  console.log(`\n(info) p50 added at 1 connection: POST ${fixed(single("POST"), 0)} ms, GET ${fixed(single("GET"), 0)} ms (autocannon's resolution is 1 ms)`);
  console.log(`(info) memory, MB: ${after.map(({ name, memory }, i) => `${name} ${fixed(rss(idle[i]?.memory))} idle -> ${fixed(rss(memory))} (peak ${fixed(memory?.peakMb ?? NaN)})`).join("; ")}`);
  console.log(`\n${logSummary()}`);

  const file = await writeResults("weight", { at: new Date().toISOString(), options: opts, pinning, tables, phases, aims, memory: { idle, after } });
  console.log(`\nresults: ${file}`);
});
