// pnpm bench:scale [--accounts 100000] [--years 10] [--duration 10] [--connections 50] [--check]
//
// How cost grows as data grows (issue 41): the platform as `pnpm start:services` runs it, measured on an empty
// database, then again once `--accounts` accounts of about a month each and one account of `--years` years are in
// it (written straight into the services' tables). Writes (one account, and spread over many) and dashboards must
// stay within the dashboard's 1.3x rule against the empty database, the long account's against an ordinary one;
// the long account's export is streamed and timed while every server's memory is watched.
import { scopes } from "@fit/contracts";
import { runBenchmark } from "./support/cleanup.ts";
import { pinForRun } from "./support/cpu.ts";
import { countOf, createBenchDatabase, withClient } from "./support/database.ts";
import { clean, measure, SHARED_SERVERS, untilQuiet, type LoadFigures, type LoadSpec } from "./support/load.ts";
import { machine } from "./support/machine.ts";
import { memoryOf } from "./support/proc.ts";
import { benchOptions, fixed, phaseTable, table, writeResults } from "./support/report.ts";
import { ACCOUNT_SIZE, seedAccounts, seedOrdinary, seedYears } from "./support/seed.ts";
import { startPlatform } from "./support/services.ts";
import { judge, targetTable, type Target } from "./support/targets.ts";

const opts = benchOptions({ accounts: { type: "string", default: "100000" }, years: { type: "string", default: "10" } });
const { accounts: ACCOUNTS = 0, years: YEARS = 0 } = opts.more;
const SPREAD_ACCOUNTS = 100;
const pinning = pinForRun();
const today = new Date().toISOString().slice(0, 10);
type Spec = Omit<LoadSpec, "connections" | "duration">;

/** The export as a client reads it: bytes and seconds, and the most each server's RSS rose above where it started. */
const timedExport = async (url: string, key: string, pids: Record<string, number>) => {
  const rssOf = async () => Object.fromEntries(await Promise.all(Object.entries(pids).map(async ([name, pid]) => [name, (await memoryOf(pid))?.rssMb ?? NaN] as const)));
  const before = await rssOf();
  const peak = { ...before };
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      for (const [name, mb] of Object.entries(await rssOf())) peak[name] = Math.max(peak[name]!, mb);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  const started = performance.now();
  const response = await fetch(`${url}/api/account/export`, { headers: { authorization: `Bearer ${key}` } });
  if (!response.ok || !response.body) throw new Error(`the export answered ${response.status}: ${await response.text()}`);
  let bytes = 0;
  for await (const chunk of response.body) bytes += chunk.length;
  const seconds = (performance.now() - started) / 1000;
  sampling = false;
  await sampler;
  const growth = Object.fromEntries(Object.keys(before).map((name) => [name, Math.round((peak[name]! - before[name]!) * 10) / 10]));
  return { bytes, seconds, growth };
};

await runBenchmark(async () => {
  console.log(`bench:scale: ${ACCOUNTS} accounts of ${JSON.stringify(ACCOUNT_SIZE)} and one of ${YEARS} years; ${opts.connections} connections, ${opts.duration} s per phase; ${pinning}`);
  const db = await createBenchDatabase();
  const platform = await startPlatform(db.url);
  // The dashboards are read on an account of ordinary size that no phase writes to, and each round writes to accounts
  // of its own, seeded alike: the writes land on today, which the dashboard sums from readings, so an account written
  // to in the first round carried its own new day of thousands of weigh-ins into the second (a dashboard 1.7x and a
  // weigh-in 1.6x "slower" at 100 000 accounts), which measures that day, not the data around it.
  const reader = await platform.account("reader");
  const writersOf = async (round: string) => ({
    one: await platform.account(`${round}-writer`),
    spread: await Promise.all(Array.from({ length: SPREAD_ACCOUNTS }, (_, i) => platform.account(`${round}-spread${i}`))),
  });
  const writers = { empty: await writersOf("empty"), full: await writersOf("full") };
  const seeded = [reader, ...Object.values(writers).flatMap(({ one, spread }) => [one, ...spread])];
  await withClient(db.url, (client) => seedOrdinary(client, seeded.map((account) => account.accountId), today));
  // Every scope, the granted-only `account` that the export needs included.
  const long = await platform.account("long", [...scopes]);
  const as = (key: string) => ({ authorization: `Bearer ${key}`, "content-type": "application/json" });
  const load = {
    postWeight: (key: string): Spec => ({ url: `${platform.gatewayUrl}/api/weight`, method: "POST", headers: as(key), body: "{\"weightKg\":80.5}" }),
    postSpread: (accounts: { key: string }[]): Spec => ({ ...load.postWeight(accounts[0]!.key), headerSets: accounts.map((a) => ({ authorization: `Bearer ${a.key}` })) }),
    dashboard: (key: string): Spec => ({ url: `${platform.gatewayUrl}/api/dashboard?date=${today}`, method: "GET", headers: as(key) }),
  };
  const phases: Record<string, LoadFigures> = {};
  // CPU is counted for PostgreSQL and NATS too; the wait for idle watches the servers alone, since autovacuum of the
  // seeded tables is the database's own work, not a phase's tail.
  const counted = { ...platform.pids, ...SHARED_SERVERS };
  const phase = async (name: string, spec: Spec) => {
    await untilQuiet(platform.pids);
    return (phases[name] = await measure({ ...spec, connections: opts.connections, duration: opts.duration }, opts.warmup, counted));
  };
  const round = async (label: string, { one, spread }: (typeof writers)["empty"], withLong: boolean) => ({
    post: await phase(`POST /api/weight, one account (${label})`, load.postWeight(one.key)),
    spread: await phase(`POST /api/weight, ${SPREAD_ACCOUNTS} accounts (${label})`, load.postSpread(spread)),
    dashboard: await phase(`GET /api/dashboard, ordinary account (${label})`, load.dashboard(reader.key)),
    // Its dashboard before its writes, for the same reason.
    ...(withLong
      ? { longDashboard: await phase(`GET /api/dashboard, ${YEARS}-year account`, load.dashboard(long.key)), longPost: await phase(`POST /api/weight, ${YEARS}-year account`, load.postWeight(long.key)) }
      : {}),
  });

  const empty = await round("empty database", writers.empty, false);
  const seeding = performance.now();
  const rows = await withClient(db.url, async (client) => {
    await seedAccounts(client, ACCOUNTS, today);
    await seedYears(client, long.accountId, today, YEARS);
    // A database of this size in use has been vacuumed since its rows came: without it, autovacuum of ten million
    // fresh rows runs on the server core during the phases measured right after the seeding.
    await client.query("VACUUM (ANALYZE)");
    // And written out: the vacuum dirties every page it sets hints on, and a checkpoint writing them during the
    // first phases is the seeding's cost, not the writes'.
    await client.query("CHECKPOINT");
    const of = (table: string) => countOf(client, `SELECT count(*) AS n FROM ${table} WHERE account_id = $1`, [long.accountId]);
    return {
      total: await countOf(client, "SELECT (SELECT count(*) FROM body_metrics.weight_reading) + (SELECT count(*) FROM nutrition.food_item) + (SELECT count(*) FROM workouts.workout) AS n"),
      long: { weighIns: await of("body_metrics.weight_reading"), measurements: await of("body_metrics.measurement"), foodItems: await of("nutrition.food_item"), dailyTotals: await of("nutrition.daily_total"), workouts: await of("workouts.workout") },
    };
  });
  const seedSeconds = (performance.now() - seeding) / 1000;
  console.log(`seeded ${rows.total} weigh-ins, food items and workouts in ${fixed(seedSeconds)} s; the ${YEARS}-year account: ${JSON.stringify(rows.long)}`);
  const full = await round(`${ACCOUNTS} accounts`, writers.full, true);

  await untilQuiet(platform.pids);
  const exported = await timedExport(platform.gatewayUrl, long.key, platform.pids);
  const exportedRows = Object.values(rows.long).reduce((a, b) => a + b, 0);
  const rowsPerSecond = exportedRows / exported.seconds;
  const worstGrowth = Math.max(...Object.values(exported.growth));

  const slower = (what: string, after: LoadFigures, before: LoadFigures): Target => ({
    what, today: "not measured", value: after.p50 / before.p50, trusted: clean(after) && clean(before), floor: 1.3, aim: 1.1, unit: "x", lower: true,
  });
  const targets: Target[] = [
    slower(`POST /api/weight p50, ${ACCOUNTS} accounts / empty database`, full.post, empty.post),
    slower(`POST /api/weight over ${SPREAD_ACCOUNTS} accounts p50, ${ACCOUNTS} accounts / empty database`, full.spread, empty.spread),
    slower(`GET /api/dashboard p50, ${ACCOUNTS} accounts / empty database`, full.dashboard, empty.dashboard),
    slower(`POST /api/weight p50, ${YEARS}-year account / ordinary account`, full.longPost!, full.post),
    slower(`GET /api/dashboard p50, ${YEARS}-year account / ordinary account`, full.longDashboard!, full.dashboard),
    { what: `export of the ${YEARS}-year account, rows/s`, today: "not measured", value: rowsPerSecond, trusted: true, floor: 5_000, aim: 20_000, unit: "rows/s" },
    { what: "export: most any server's RSS rose", today: "not measured", value: worstGrowth, trusted: true, floor: 64, aim: 32, unit: "MB", lower: true, strictly: true },
  ];
  const verdicts = judge(targets);
  console.log(`\n${phaseTable(phases)}`);
  console.log(`\nexport: ${exportedRows} rows, ${fixed(exported.bytes / 1024 / 1024)} MiB in ${fixed(exported.seconds, 2)} s; RSS growth by server (MB): ${JSON.stringify(exported.growth)}`);
  console.log(`\n${targetTable(verdicts)}`);
  console.log(`\n${table([["machine", ""], ...Object.entries(machine()).map(([k, v]) => [k, String(v)])])}`);
  const file = await writeResults("scale", { at: new Date().toISOString(), machine: machine(), options: { ...opts, accounts: ACCOUNTS, years: YEARS }, pinning, rows, seedSeconds, phases, exported, targets: verdicts });
  console.log(`\nresults: ${file}`);
  if (opts.check && verdicts.some((v) => v.verdict === "MISS" || v.verdict === "INVALID")) process.exitCode = 1;
});
