// pnpm bench [--duration 10] [--connections 50] [--warmup 2]      every row of the performance targets table
// pnpm bench:check                                                 the same, a few seconds per phase; exits 1 below a floor
//
// The platform as `pnpm start:services` runs it (PostgreSQL + NATS, each service its own process) against a
// bare Fastify + pg server doing the same inserts and select, measured in the same run: absolute figures drift
// between runs on a 2-core machine, ratios much less. Prints a table and writes bench/results/latest.json.
import type pg from "pg";
import { startBaseline } from "./support/baseline.ts";
import { runBenchmark } from "./support/cleanup.ts";
import { pinForRun } from "./support/cpu.ts";
import { countOf, createBenchDatabase, waitUntil, withClient } from "./support/database.ts";
import { logSummary } from "./support/logs.ts";
import { clean, measure, QUIET_MAX_MS, SHARED_SERVERS, untilQuiet, type LoadFigures, type LoadSpec } from "./support/load.ts";
import { machine } from "./support/machine.ts";
import { benchOptions, fixed, phaseTable, table, writeResults } from "./support/report.ts";
import { HISTORY, seedHistory } from "./support/seed.ts";
import { startPlatform } from "./support/services.ts";
import { judge, overRotations, targetTable, type Target } from "./support/targets.ts";
import { measureStartup } from "./startup.ts";

const opts = benchOptions();
const SINGLE_SECONDS = opts.check ? 2 : 4;
const PLATFORM_WARMUP_SECONDS = 3;
const pinning = pinForRun();

const today = new Date().toISOString().slice(0, 10);
const SCHEMAS = { gateway: "body_metrics", baseline: "bench_baseline" } as const;
type Side = keyof typeof SCHEMAS;
const SIDES = ["baseline", "gateway"] as const;
const SPREAD_ACCOUNTS = 100;

const countReadings = (client: pg.Client, side: Side) => countOf(client, `SELECT count(*) AS n FROM ${SCHEMAS[side]}.weight_reading`);
const UNSENT = "SELECT count(*) AS n FROM body_metrics.outbox_event WHERE sent_at IS NULL";

/**
 * The same readings on both sides before the GET phases (the faster POST phase leaves more), freshly analyzed,
 * and body-metrics' outbox drained, so its relay is not still publishing on the server CPU while GET is measured.
 */
const levelReadings = async (client: pg.Client, accountId: string) => {
  const before = { gateway: await countReadings(client, "gateway"), baseline: await countReadings(client, "baseline") };
  const target = Math.max(before.gateway, before.baseline);
  for (const side of SIDES) {
    await client.query(
      `INSERT INTO ${SCHEMAS[side]}.weight_reading (id, account_id, ts, weight_kg, source)
       SELECT gen_random_uuid(), $1, now() - interval '1 day' - n * interval '1 minute', 80.5, 'manual' FROM generate_series(1, $2) n`,
      [accountId, target - before[side]],
    );
    await client.query(`ANALYZE ${SCHEMAS[side]}.weight_reading`);
  }
  const outboxDrainMs = await waitUntil(async () => (await countOf(client, UNSENT)) === 0, 60_000);
  return { postedReadings: before, readingsForGet: target, outboxDrainMs };
};

/**
 * `pnpm start`'s rows (issue 41): the node process's memory, the node process's own time to /readyz (what the code
 * controls), and the start as the README types it, npx and pnpm included.
 */
const embeddedTargets = ({ fresh, existing, npxExisting, load: l }: Awaited<ReturnType<typeof measureStartup>>): Target[] => [
  { what: "embedded pnpm start: RSS after start", today: "820-1330 MB", value: Math.max(fresh.afterStart.nodeMb, existing.afterStart.nodeMb), trusted: true, floor: 150, aim: 120, unit: "MB", lower: true, strictly: true },
  { what: "embedded pnpm start: RSS after load", today: "820-1330 MB", value: fresh.afterLoad.nodeMb, trusted: l.failed === 0, floor: 150, aim: 120, unit: "MB", lower: true, strictly: true },
  { what: "embedded start to ready, node process, fresh data", today: "21 s", value: fresh.nodeReadyMs / 1000, trusted: true, floor: 2, aim: 1, unit: "s", lower: true, strictly: true },
  { what: "embedded start to ready, node process, existing data", today: "10 s", value: existing.nodeReadyMs / 1000, trusted: true, floor: 1, aim: 0.5, unit: "s", lower: true, strictly: true },
  { what: "embedded npx -y pnpm@10 start to ready, existing data", today: "13.8 s", value: npxExisting.readyMs / 1000, trusted: true, floor: 3, aim: 2, unit: "s", lower: true, strictly: true },
];

await runBenchmark(async () => {
  const runs = `${opts.connections} connections, ${opts.duration} s per phase after ${opts.warmup} s warm-up, ${opts.rotations} rotation(s)`;
  console.log(`${opts.check ? "bench:check" : "bench"}: ${runs}; ${pinning}`);
  // First, on a quiet machine: the embedded default as `pnpm start` runs it, fresh and on its own data.
  const embedded = await measureStartup({ quick: opts.check });
  const db = await createBenchDatabase();
  const platform = await startPlatform(db.url);
  const writer = await platform.account("writer");
  const fresh = await platform.account("fresh");
  const heavy = await platform.account("heavy");
  // Writes spread over many accounts as well as one (issue 41): one account's writes queue on its day's roll-up row.
  const spread = await Promise.all(Array.from({ length: SPREAD_ACCOUNTS }, (_, i) => platform.account(`spread${i}`)));
  const baseline = await startBaseline(db.url, writer.accountId);
  await withClient(db.url, (client) => seedHistory(client, heavy.accountId, today));

  const gateway = (key: string) => ({ url: platform.gatewayUrl, headers: { authorization: `Bearer ${key}` } });
  const sides: Record<Side, { url: string; headers: Record<string, string> }> = { gateway: gateway(writer.key), baseline: { url: baseline.url, headers: {} } };
  const json = { "content-type": "application/json" };
  const food = JSON.stringify({ date: today, name: "oats", kcal: 380, proteinG: 13, meal: "breakfast" });
  const load = {
    postWeight: (side: Side): Omit<LoadSpec, "connections" | "duration"> =>
      ({ url: `${sides[side].url}/api/weight`, method: "POST", headers: { ...sides[side].headers, ...json }, body: "{\"weightKg\":80.5}" }),
    postWeightSpread: (): Omit<LoadSpec, "connections" | "duration"> =>
      ({ ...load.postWeight("gateway"), headerSets: spread.map((account) => ({ authorization: `Bearer ${account.key}` })) }),
    getWeight: (side: Side): Omit<LoadSpec, "connections" | "duration"> => ({ url: `${sides[side].url}/api/weight`, method: "GET", headers: sides[side].headers }),
    postFood: (side: Side): Omit<LoadSpec, "connections" | "duration"> =>
      ({ url: `${sides[side].url}/api/nutrition/items`, method: "POST", headers: { ...sides[side].headers, ...json }, body: food }),
    dashboard: (key: string): Omit<LoadSpec, "connections" | "duration"> =>
      ({ url: `${platform.gatewayUrl}/api/dashboard?date=${today}`, method: "GET", headers: gateway(key).headers }),
  };

  // One request each first: a wrong key, route or seed would otherwise pass as a column of non-2xx or a fast empty answer.
  const probe = async (name: string, spec: Omit<LoadSpec, "connections" | "duration">) => {
    const res = await fetch(spec.url, { method: spec.method, headers: spec.headers ?? {}, body: spec.body ?? null, signal: AbortSignal.timeout(10_000) });
    const body = await res.text();
    if (!res.ok) throw new Error(`${name}: ${spec.method} ${spec.url} answered ${res.status} ${body}`);
    return body;
  };
  for (const side of SIDES) for (const op of ["postWeight", "postFood"] as const) await probe(`${side} ${op}`, load[op](side));
  const heavyDashboard = JSON.parse(await probe("heavy dashboard", load.dashboard(heavy.key))) as { weight: { trend: unknown[] } | null };
  if ((heavyDashboard.weight?.trend.length ?? 0) < HISTORY.weighInDays) throw new Error("the seeded account's dashboard has no 90-day trend");

  // Every server past its start-up before anything is measured: a process's first seconds of load run partly in
  // V8's interpreter and grow its heap by many full collections, and workouts sees its first request in the
  // dashboard phase. A phase's own warm-up (1 s in bench:check) was too short for that, so the first phases
  // measured a cold process rather than the path. Both sides get it.
  const everyOperation = [
    load.postWeight("baseline"), load.postWeight("gateway"), load.postWeightSpread(), load.postFood("baseline"), load.postFood("gateway"),
    load.getWeight("baseline"), load.getWeight("gateway"), load.dashboard(fresh.key), load.dashboard(heavy.key),
  ];
  for (const spec of everyOperation) {
    await measure({ ...spec, connections: opts.connections, duration: PLATFORM_WARMUP_SECONDS }, 0);
  }

  const phases: Record<string, LoadFigures> = {};
  const watched = { ...platform.pids, baseline: baseline.pid, ...SHARED_SERVERS };
  // Each phase starts on an idle platform: after the food writes, nutrition's roll-up consumer worked through
  // their events for seconds and took the server core from the bare select that came next.
  const busyStarts: string[] = [];
  // What the platform still owed the phase before (events behind at 50 connections): a write phase's req/s leaves it out.
  const settling: Record<string, number> = {};
  const phase = async (name: string, spec: LoadSpec, warmupSeconds: number) => {
    const waitedMs = await untilQuiet(watched);
    if (waitedMs === null) busyStarts.push(name);
    else if (waitedMs > 5_000) settling[name] = Math.round(waitedMs / 100) / 10;
    return (phases[name] = await measure(spec, warmupSeconds, watched));
  };
  const saturated = (name: string, spec: Omit<LoadSpec, "connections" | "duration">) =>
    phase(`${name} (${opts.connections} conn)`, { ...spec, connections: opts.connections, duration: opts.duration }, opts.warmup);
  const single = (name: string, spec: Omit<LoadSpec, "connections" | "duration">) =>
    phase(`${name} (1 conn, sequential)`, { ...spec, connections: 1, duration: SINGLE_SECONDS, sequential: true }, 1);

  // Baseline and gateway back to back per operation, so both meet the same machine state; the whole round
  // `--rotations` times, each ratio taken within its rotation (as an outsider measures: docs/performance.md).
  const rotation = async (round: string) => {
    const sat = (name: string, spec: Omit<LoadSpec, "connections" | "duration">) => saturated(`${name}${round}`, spec);
    const post = {
      baseline: await sat("POST /api/weight bare insert", load.postWeight("baseline")),
      gateway: await sat("POST /api/weight gateway", load.postWeight("gateway")),
      spread: await sat(`POST /api/weight gateway, ${SPREAD_ACCOUNTS} accounts`, load.postWeightSpread()),
    };
    const postFood = { baseline: await sat("POST /api/nutrition/items bare insert", load.postFood("baseline")), gateway: await sat("POST /api/nutrition/items gateway", load.postFood("gateway")) };
    const levelled = await withClient(db.url, (client) => levelReadings(client, writer.accountId));
    const get = { baseline: await sat("GET /api/weight bare select", load.getWeight("baseline")), gateway: await sat("GET /api/weight gateway", load.getWeight("gateway")) };
    const dashboard = { fresh: await sat("GET /api/dashboard fresh account", load.dashboard(fresh.key)), heavy: await sat("GET /api/dashboard 5 000 weigh-ins", load.dashboard(heavy.key)) };
    const one = { baseline: await single(`POST /api/weight bare insert${round}`, load.postWeight("baseline")), gateway: await single(`POST /api/weight gateway${round}`, load.postWeight("gateway")) };
    return { post, postFood, levelled, get, dashboard, one };
  };
  type Rotation = Awaited<ReturnType<typeof rotation>>;
  const rotations: Rotation[] = [];
  for (let r = 1; r <= opts.rotations; r++) rotations.push(await rotation(opts.rotations > 1 ? ` #${r}` : ""));
  const memory = await platform.memory();
  const levelled = rotations.at(-1)!.levelled;

  const each = (of: (r: Rotation) => { value: number; trusted: boolean }) => overRotations(rotations.map(of));
  const ratio = (a: LoadFigures, b: LoadFigures) => ({ value: a.okPerSec / b.okPerSec, trusted: clean(a) && clean(b) });
  const gatewayRows: Record<string, (r: Rotation) => LoadFigures> = {
    "POST /api/weight": (r) => r.post.gateway, [`POST /api/weight, ${SPREAD_ACCOUNTS} accounts`]: (r) => r.post.spread, "GET /api/weight": (r) => r.get.gateway, "POST /api/nutrition/items": (r) => r.postFood.gateway,
    "GET /api/dashboard fresh": (r) => r.dashboard.fresh, "GET /api/dashboard 5 000 weigh-ins": (r) => r.dashboard.heavy,
  };
  // Floors and aims of issue 41; "before" is the independent run it records (wrk, everything pinned, 3 rotations).
  const targets: Target[] = [
    { what: "POST /api/weight req/s, gateway / bare insert", today: "0.25x", ...each((r) => ratio(r.post.gateway, r.post.baseline)), floor: 0.4, aim: 0.6, unit: "x" },
    {
      what: `POST /api/weight req/s over ${SPREAD_ACCOUNTS} accounts, gateway / bare insert`, today: "not measured",
      ...each((r) => ratio(r.post.spread, r.post.baseline)), floor: 0.4, aim: 0.6, unit: "x",
    },
    { what: "GET /api/weight req/s, gateway / bare select", today: "0.53x", ...each((r) => ratio(r.get.gateway, r.get.baseline)), floor: 0.7, aim: 0.9, unit: "x" },
    { what: "POST /api/nutrition/items req/s, gateway / bare insert", today: "0.24x", ...each((r) => ratio(r.postFood.gateway, r.postFood.baseline)), floor: 0.4, aim: 0.6, unit: "x" },
    { what: "GET /api/dashboard req/s, fresh account / bare select", today: "0.21x", ...each((r) => ratio(r.dashboard.fresh, r.get.baseline)), floor: 0.4, aim: 0.6, unit: "x" },
    {
      what: `GET /api/dashboard p50, ${HISTORY.weighIns} weigh-ins / fresh account`, today: "1.13-1.26x",
      ...each((r) => ({ value: r.dashboard.heavy.p50 / r.dashboard.fresh.p50, trusted: clean(r.dashboard.heavy) && clean(r.dashboard.fresh) })),
      floor: 1.3, aim: 1.1, unit: "x", lower: true,
    },
    ...Object.entries(gatewayRows).map(([name, of]): Target => ({
      what: `${name} p99 / bare insert's p99, ${opts.connections} connections`, today: "2.8-17x",
      ...each((r) => ({ value: of(r).p99 / r.post.baseline.p99, trusted: clean(of(r)) && clean(r.post.baseline) })), floor: 2.5, aim: 1.5, unit: "x", lower: true,
    })),
    {
      what: "POST /api/weight added p50 at 1 connection", today: "+2.2-2.4 ms",
      ...each((r) => ({ value: r.one.gateway.p50 - r.one.baseline.p50, trusted: clean(r.one.gateway) && clean(r.one.baseline) })), floor: 1, aim: 0.5, unit: "ms", lower: true,
    },
    ...memory.map(({ name, memory: m }): Target => ({ what: `${name} RSS after the load`, today: "92-140 MB", value: m?.rssMb ?? NaN, trusted: m !== null, floor: 100, aim: 80, unit: "MB", lower: true, strictly: true })),
    ...embeddedTargets(embedded),
  ];
  const verdicts = judge(targets);

  console.log(`\nseeded account: ${HISTORY.weighIns} weigh-ins in ${HISTORY.weighInDays} days, ${HISTORY.measurements} measurements, ${HISTORY.foodItems} food items over ${HISTORY.foodDays} days`);
  console.log(`POST phases stored ${levelled.postedReadings.gateway} (gateway) / ${levelled.postedReadings.baseline} (bare) readings; both topped up to ${levelled.readingsForGet} for GET; outbox drained in ${levelled.outboxDrainMs === null ? "> 60 s" : `${fixed(levelled.outboxDrainMs / 1000)} s`}\n`);
  console.log(phaseTable(phases));
  if (Object.keys(settling).length) console.log(`waited for an idle platform before: ${Object.entries(settling).map(([name, s]) => `${name} ${s} s`).join("; ")}`);
  if (busyStarts.length) console.log(`(!) not idle after ${QUIET_MAX_MS / 1000} s, measured anyway: ${busyStarts.join("; ")}`);
  console.log(`\nembedded ${embedded.command}: ready in ${fixed(embedded.fresh.readyMs / 1000)} s fresh / ${fixed(embedded.existing.readyMs / 1000)} s on its data ` +
    `(the node process alone: ${fixed(embedded.fresh.nodeReadyMs / 1000)} / ${fixed(embedded.existing.nodeReadyMs / 1000)} s; ` +
    `npx -y pnpm@10 start on its data: ${fixed(embedded.npxExisting.readyMs / 1000)} s, bin/start ${fixed(embedded.binExisting.readyMs / 1000)} s); whole process tree ` +
    `${embedded.fresh.afterLoad.treeMb} MB after ${embedded.load.requests} requests (${embedded.command}'s own processes included)`);
  console.log(`\n${targetTable(verdicts)}`);
  console.log(`\n${table([["machine", ""], ...Object.entries(machine()).map(([k, v]) => [k, String(v)])])}`);
  console.log(`\n${logSummary()}`);

  const results = { at: new Date().toISOString(), machine: machine(), options: opts, pinning, history: HISTORY, levelled, phases, settling, busyStarts, embedded, targets: verdicts };
  const file = await writeResults(opts.check ? "check" : "targets", results, "latest");
  console.log(`\nresults: ${file}`);
  const missed = verdicts.filter((v) => v.verdict !== "PASS" && v.verdict !== "AIM");
  if (opts.check && missed.length > 0) {
    console.log(`\nbench:check FAILED: ${missed.length} row(s) below this issue's floor: ${missed.map((v) => v.what).join("; ")}`);
    process.exitCode = 1;
  }
});
