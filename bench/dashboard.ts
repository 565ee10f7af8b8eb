// pnpm bench:dashboard [--duration 10] [--connections 50] [--warmup 2]
// GET /api/dashboard through the gateway of the multi-process platform for an empty account and for one with
// two years of history, then how long a food write's event takes to reach other consumers.
import { runBenchmark } from "./support/cleanup.ts";
import { pinning, pinSelfToLoadCpu } from "./support/cpu.ts";
import { countOf, createBenchDatabase, waitUntil, withClient } from "./support/database.ts";
import { lagTable, measureEventLag } from "./support/event-lag.ts";
import { logSummary } from "./support/logs.ts";
import { clean, measure, type LoadFigures, type LoadSpec } from "./support/load.ts";
import { aimTable, benchOptions, fixed, phaseTable, writeResults, type Aim } from "./support/report.ts";
import { dayBefore, seedHistory } from "./support/seed.ts";
import { startPlatform, type Platform } from "./support/services.ts";

const opts = benchOptions();
const SINGLE_SECONDS = 3;
const LAG_WRITES = 200;
pinSelfToLoadCpu();

const today = new Date().toISOString().slice(0, 10);
/** The home screen's usual question: today, the newest day of the seeded two years. */
const date = today;

const setTargets = async (platform: Platform, key: string) => {
  const res = await fetch(`${platform.gatewayUrl}/api/targets`, {
    method: "PUT",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({
      goalWeightKg: 78, startWeightKg: 92, dailyKcalTarget: 2200, proteinTargetG: 140,
      startDate: Date.parse(`${dayBefore(today, 729)}T00:00:00Z`), targetDate: Date.parse(`${today}T00:00:00Z`) + 180 * 86_400_000,
    }),
    signal: AbortSignal.timeout(10_000),
  });
  if (!res.ok) throw new Error(`PUT /api/targets answered ${res.status} ${await res.text()}`);
};

await runBenchmark(async () => {
  console.log(`dashboard: ${opts.connections} connections, ${opts.duration} s per phase after ${opts.warmup} s warm-up; ${pinning}`);
  const db = await createBenchDatabase();
  const platform = await startPlatform(db.url);
  const empty = await platform.account("empty");
  const full = await platform.account("full");

  const seeded = await withClient(db.url, async (client) => {
    const start = performance.now();
    await seedHistory(client, full.accountId, today);
    const seedMs = performance.now() - start;
    await setTargets(platform, full.key);
    // Nutrition keeps its own copy of the targets (from body-metrics' event); wait until it has it.
    const targetsMs = await waitUntil(
      async () => (await countOf(client, "SELECT count(*) AS n FROM nutrition.account_targets WHERE account_id = $1", [full.accountId])) === 1,
      10_000,
    );
    if (targetsMs === null) throw new Error("nutrition did not receive the targets within 10 s");
    return { seedMs, targetsMs };
  });
  console.log(`seeded 730 weigh-ins, 1000 measurements, 10000 food items in ${fixed(seeded.seedMs / 1000, 2)} s; targets reached nutrition in ${fixed(seeded.targetsMs)} ms`);

  const accounts = { empty, full } as const;
  const spec = (name: keyof typeof accounts, connections: number, duration: number): LoadSpec => ({
    url: `${platform.gatewayUrl}/api/dashboard?date=${date}`,
    method: "GET",
    headers: { authorization: `Bearer ${accounts[name].key}` },
    connections,
    duration,
  });

  // What each answer holds, so a broken seed cannot pass as a fast dashboard.
  for (const name of ["empty", "full"] as const) {
    const res = await fetch(spec(name, 1, 1).url, { headers: spec(name, 1, 1).headers ?? {}, signal: AbortSignal.timeout(10_000) });
    const body = await res.text();
    if (!res.ok) throw new Error(`${name}: GET /api/dashboard answered ${res.status} ${body}`);
    const d = JSON.parse(body) as { weight: { trend: unknown[] } | null; measurementsLatest: unknown[]; nutritionToday: { kcal: number } | null; targets: unknown };
    console.log(`${name}: ${body.length} bytes, ${d.weight?.trend.length ?? 0} trend points, ${d.measurementsLatest.length} sites, ` +
      `nutrition ${d.nutritionToday ? `${fixed(d.nutritionToday.kcal, 0)} kcal` : "none"}, targets ${d.targets ? "set" : "none"}`);
  }

  const phases: Record<string, LoadFigures> = {};
  const label = (name: string, connections: number) => `GET /api/dashboard ${name} (${connections} conn)`;
  for (const name of ["empty", "full"] as const) {
    phases[label(name, opts.connections)] = await measure(spec(name, opts.connections, opts.duration), opts.warmup, platform.pids);
  }
  for (const name of ["empty", "full"] as const) {
    phases[label(name, 1)] = await measure(spec(name, 1, SINGLE_SECONDS), 0, platform.pids);
  }

  const lag = await withClient(db.url, (client) =>
    measureEventLag(client, { gatewayUrl: platform.gatewayUrl, key: full.key, accountId: full.accountId, date, namespace: platform.namespace, writes: LAG_WRITES }),
  );
  const memory = await platform.memory();

  const [e, f] = [phases[label("empty", opts.connections)]!, phases[label("full", opts.connections)]!];
  const ratio = f.p50 / e.p50;
  const aims: Aim[] = [
    { what: "p50 full / p50 empty", value: `${fixed(ratio, 2)}x`, aim: "<= 1.5x", met: clean(e) && clean(f) ? ratio <= 1.5 : null },
  ];
  const [e1, f1] = [phases[label("empty", 1)]!, phases[label("full", 1)]!];

  console.log(`\n${phaseTable(phases)}`);
  console.log(`\n${aimTable(aims)}`);
  console.log(`\n(info) throughput full / empty: ${fixed(f.okPerSec / e.okPerSec, 2)}x; at 1 connection p50 ${f1.p50} ms (full) vs ${e1.p50} ms (empty), autocannon's resolution is 1 ms`);
  console.log(`\nevent lag over ${lag.writes} sequential food writes (full account, ${date})${lag.missed ? `, ${lag.missed} not seen within 10 s` : ""}:`);
  console.log(lagTable(lag));
  console.log(`\n(info) memory after the run, MB: ${memory.map(({ name, memory: m }) => `${name} ${fixed(m?.rssMb ?? NaN)} (peak ${fixed(m?.peakMb ?? NaN)})`).join("; ")}`);
  console.log(`\n${logSummary()}`);

  const file = await writeResults("dashboard", { at: new Date().toISOString(), options: opts, pinning, date, seeded, phases, aims, eventLag: lag, memory });
  console.log(`\nresults: ${file}`);
});
