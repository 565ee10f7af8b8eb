// pnpm bench:weight [--duration 10] [--connections 50] [--warmup 2]
// POST and GET /api/weight through the gateway of the multi-process platform (PostgreSQL + NATS), against a
// bare Fastify + pg baseline measured in the same run: absolute figures drift between runs, ratios much less.
import pg from "pg";
import { startBaseline } from "./support/baseline.ts";
import { cleanup } from "./support/cleanup.ts";
import { pinning, pinSelfToLoadCpu } from "./support/cpu.ts";
import { createBenchDatabase } from "./support/database.ts";
import { measure, runLoad, type LoadFigures, type LoadSpec } from "./support/load.ts";
import { memoryOf } from "./support/proc.ts";
import { aimTable, benchOptions, fixed, table, writeResults, type Aim } from "./support/report.ts";
import { startPlatform } from "./support/services.ts";

const opts = benchOptions();
const SINGLE_SECONDS = 3;
const RSS_AIM_MB = 150;
pinSelfToLoadCpu();

type Side = "baseline" | "gateway";
type Op = "POST" | "GET";
const label = (op: Op, side: Side, connections: number) => `${op} /api/weight ${side} (${connections} conn)`;

try {
  console.log(`weight: ${opts.connections} connections, ${opts.duration} s per phase after ${opts.warmup} s warm-up; ${pinning}`);
  const db = await createBenchDatabase();
  const platform = await startPlatform(db.url);
  const { key, accountId } = await platform.account("weight");
  const baseline = await startBaseline(db.url, accountId);

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

  // One request each first: a wrong key or route would otherwise show up only as a column of non-2xx.
  for (const side of ["baseline", "gateway"] as const) {
    const { url, headers } = targets[side];
    const res = await fetch(`${url}/api/weight`, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: "{\"weightKg\":80.5}" });
    if (!res.ok) throw new Error(`${side}: POST /api/weight answered ${res.status} ${await res.text()}`);
  }

  // Baseline and gateway back to back per operation, so both meet the same machine state; the POST phases fill
  // the tables the GET phases then page through (newest 50 via the (account_id, ts, id) index).
  const phases: Record<string, LoadFigures> = {};
  for (const op of ["POST", "GET"] as const) {
    for (const side of ["baseline", "gateway"] as const) {
      phases[label(op, side, opts.connections)] = await measure(spec(op, side, opts.connections, opts.duration), opts.warmup);
    }
  }
  // At 50 connections the servers are saturated and p50 is mostly queueing (≈ connections / throughput);
  // one connection shows what the gateway path adds to a single request.
  for (const op of ["POST", "GET"] as const) {
    for (const side of ["baseline", "gateway"] as const) phases[label(op, side, 1)] = await runLoad(spec(op, side, 1, SINGLE_SECONDS));
  }

  const memory = [...(await platform.memory()), { name: "baseline", memory: await memoryOf(baseline.pid) }];
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  const count = async (schema: string) =>
    Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${schema}.weight_reading`)).rows[0]?.n);
  const rows = { gateway: await count("body_metrics"), baseline: await count("bench_baseline") };
  await client.end();

  console.log(`\nrows read by GET: gateway ${rows.gateway}, baseline ${rows.baseline}\n`);
  console.log(table([
    ["phase", "req/s", "p50 ms", "p99 ms", "requests", "errors", "timeouts", "non-2xx"],
    ...Object.entries(phases).map(([name, f]) => [name, fixed(f.reqPerSec), f.p50, f.p99, f.requests, f.errors, f.timeouts, f.non2xx]),
  ]));

  const aims: Aim[] = [];
  for (const op of ["POST", "GET"] as const) {
    const [g, b] = [phases[label(op, "gateway", opts.connections)]!, phases[label(op, "baseline", opts.connections)]!];
    const ratio = g.reqPerSec / b.reqPerSec;
    const added = g.p50 - b.p50;
    aims.push({ what: `${op} throughput gateway/baseline`, value: `${fixed(ratio, 2)}x`, aim: ">= 0.5x", met: ratio >= 0.5 });
    aims.push({ what: `${op} p50 gateway - baseline`, value: `${fixed(added)} ms`, aim: "< 2 ms", met: added < 2 });
  }
  for (const { name, memory: m } of memory.filter((x) => x.name !== "baseline")) {
    aims.push({ what: `${name} VmRSS (peak ${fixed(m?.peakMb ?? NaN)})`, value: `${fixed(m?.rssMb ?? NaN)} MB`, aim: `< ${RSS_AIM_MB} MB`, met: (m?.rssMb ?? Infinity) < RSS_AIM_MB });
  }
  const single = (op: Op) => phases[label(op, "gateway", 1)]!.p50 - phases[label(op, "baseline", 1)]!.p50;
  console.log(`\n${aimTable(aims)}`);
  console.log(`\n(info) p50 added at 1 connection: POST ${fixed(single("POST"))} ms, GET ${fixed(single("GET"))} ms; baseline VmRSS ${fixed(memory.at(-1)?.memory?.rssMb ?? NaN)} MB`);

  const file = await writeResults("weight", { at: new Date().toISOString(), options: opts, pinning, rows, phases, aims, memory });
  console.log(`\nresults: ${file}`);
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await cleanup();
}
