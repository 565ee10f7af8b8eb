// pnpm bench:coach [--duration 10] [--connections 50] [--warmup 2]; BENCH_COACH_RATE=150 skips the calibration
// Two claims about the coach, with a fake model that answers after 2 s: its replicas add throughput (1 then 2
// replicas under a closed loop of /api/agent callers), and a crowd of slow /api/agent calls does not slow the
// rest of the API (POST /api/weight p99 through the gateway, alone and with 100 agent callers in flight).
//
// The coach is scaled on its own (docs/decisions/0018-coach-over-the-bus.md), so its replicas run on the load
// CPU, as they would on machines of their own; the rest of the platform shares the server CPU, and pays there
// for what an agent call asks of it (the gateway's forwarding, the grounding reads in body-metrics and
// nutrition). POST /api/weight is measured at a steady rate, the highest share of what the platform answers at
// most at which it alone answers well within its own latency target (see STEADY_SHARES): a latency figure means
// little on a server already saturated, where every millisecond of other work is one more of queueing. Half the
// most, the rate used before, was such a server on a quick machine: a steady sender costs each request ~1.5×
// the CPU a closed loop of 50 connections does, PostgreSQL and NATS (unpinned) took most of the other core, and
// p99 alone scattered between 0.4 and 1.3 s. BENCH_COACH_CPU=server puts the coach on the server CPU too.
import { startFakeOpenAi, type ChatRequest } from "@fit/testing";
import { onCleanup, runBenchmark } from "./support/cleanup.ts";
import { LOAD_CPU, pinForRun, SERVER_CPU } from "./support/cpu.ts";
import { createBenchDatabase } from "./support/database.ts";
import { logSummary } from "./support/logs.ts";
import { clean, cpuDuring, measure, type LoadFigures, type LoadSpec } from "./support/load.ts";
import { aimTable, benchOptions, fixed, phaseTable, table, writeResults, type Aim } from "./support/report.ts";
import { startPlatform, type Placement, type Platform } from "./support/services.ts";
import { median, percentile } from "./support/stats.ts";

const opts = benchOptions();
const MODEL_DELAY_MS = 2000;
const LOADED_CALLERS = 100;
const LOADED_ROUNDS = 5;
/**
 * Model calls one coach replica runs at once (with the model's delay, its ceiling in replies per second) and
 * holds waiting: the defaults (COACH_CONCURRENCY, COACH_QUEUE), so the figures are the shipped coach's.
 */
const COACH_CONCURRENCY = 16;
const COACH_QUEUE = 32;
/**
 * Twice what two replicas hold (16 running + 32 queued each): the queue group picks a replica at random and a
 * refused caller sits out its 1 s Retry-After, so with barely more callers than places some places stay empty.
 */
const SCALING_CALLERS = 2 * 2 * (COACH_CONCURRENCY + COACH_QUEUE);
const SCALING_SECONDS = 12;
const WEIGHT_WARMUP_SECONDS = 5;
/** Callers need one model delay before the first replies come back: only then is the load what it will stay. */
const SETTLE_MS = MODEL_DELAY_MS + 1000;
const AGENT_ACCOUNTS = 8;
/** A quota refusal says "until midnight": waiting that long would hang the run, so a caller waits at most this. */
const MAX_RETRY_AFTER_S = 5;
/**
 * The steady rate of the weight phases: the first of these shares of what the platform answers with nobody
 * waiting at which it alone answers within half its latency target (p99 < 100 ms) at p99, in CALIBRATION_PASSES
 * runs in a row of CALIBRATION_SECONDS each: at the target itself a run of the same rate still ranged over
 * 0.1–0.7 s, and one lucky run (39 ms at 0.25 of the most) chose a rate at which every later run alone had a
 * p99 of 195–444 ms, a platform near saturation whose p99 says nothing about the agent traffic.
 */
const STEADY_SHARES = [0.5, 0.4, 0.3, 0.25, 0.2, 0.15, 0.1];
const LATENCY_TARGET_MS = 50;
const CALIBRATION_SECONDS = 5;
const CALIBRATION_PASSES = 2;
/** BENCH_COACH_RATE: a steady rate given instead of calibrated, so that runs of two builds meet the same load. */
const FIXED_RATE = Number(process.env["BENCH_COACH_RATE"] ?? 0);
/** The coach's own machines, stood in for by the load CPU at the lowest priority, so it never delays the weight sender. */
const COACH_PLACEMENT: Placement = process.env["BENCH_COACH_CPU"] === "server" ? { cpu: SERVER_CPU, nice: 0 } : { cpu: LOAD_CPU, nice: 19 };
const onServerCpu = (name: string) => COACH_PLACEMENT.cpu === SERVER_CPU || !name.startsWith("coach");
const P99_AIM = 1.2;
const SCALING_AIM = 1.8;
const QUESTION = JSON.stringify({ messages: [{ role: "user", content: "Was a bowl of porridge with a banana a good breakfast?" }] });
const pinning = pinForRun();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

const isFoodsCall = (request: ChatRequest) =>
  (request.response_format as { json_schema?: { name?: string } } | undefined)?.json_schema?.name === "foods";

/**
 * /api/agent asks the model twice: the foods in the question (structured, cached per account and text for a
 * day), then the reply. Only the reply waits, so every call holds a coach slot for one model delay, cached or
 * not; a slow foods call would make the first call per account and text cost twice as much as the others.
 */
const startSlowModel = async () => {
  const model = await startFakeOpenAi();
  onCleanup(() => model.close());
  model.setFallback((request) =>
    isFoodsCall(request)
      ? { reply: JSON.stringify({ items: [], unrecognized: [] }) }
      : { delayMs: MODEL_DELAY_MS, then: { reply: "Porridge with a banana is a fine breakfast; add some protein." } },
  );
  return model;
};

const coachEnv = {
  COACH_MODEL_RETRIES: "0", COACH_MODEL_TIMEOUT_MS: "10000",
  COACH_CONCURRENCY: String(COACH_CONCURRENCY), COACH_QUEUE: String(COACH_QUEUE),
  // The quotas guard a real model's bill; here they would only turn the load into 429s.
  COACH_DAILY_CALLS: "1000000", COACH_DAILY_TOKENS: "1000000000",
};


const askCoach = (gatewayUrl: string, key: string) =>
  fetch(`${gatewayUrl}/api/agent`, {
    method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: QUESTION, signal: AbortSignal.timeout(30_000),
  });

/**
 * `callers` closed loops of POST /api/agent: call, and on 429 wait the Retry-After the coach gave, then call
 * again. Records when each 200 and 429 came back, so a phase counts only its own window.
 */
const startAgentCallers = (gatewayUrl: string, keys: string[], callers: number) => {
  let stopping = false;
  const okAt: number[] = [];
  const busyAt: number[] = [];
  const failures: Record<string, number> = {};
  const fail = (what: string) => void (failures[what] = (failures[what] ?? 0) + 1);
  const loop = async (key: string, startAfterMs: number) => {
    await sleep(startAfterMs);
    while (!stopping) {
      // The body is read in full, so the connection goes back to the pool.
      const res = await askCoach(gatewayUrl, key).then(async (r) => (await r.arrayBuffer(), r), (error: unknown) => error as Error);
      if (res instanceof Error) {
        fail(res.name);
        await sleep(1000);
      } else if (res.status === 200) okAt.push(performance.now());
      else if (res.status === 429) {
        busyAt.push(performance.now());
        await sleep(Math.min(Number(res.headers.get("retry-after")) || 1, MAX_RETRY_AFTER_S) * 1000);
      } else fail(String(res.status));
    }
  };
  // The first calls spread over one model delay: started at one instant, with a model that answers in exactly
  // 2 s, they stayed in lockstep, waves of 100 replies and 100 new calls that no real set of agents makes. Once
  // the first delay has passed, `callers` calls are in flight all the time either way.
  const loops = Array.from({ length: callers }, (_, i) => loop(keys[i % keys.length]!, (i * MODEL_DELAY_MS) / callers));
  const within = (times: number[], from: number, to: number) => times.filter((t) => t >= from && t < to).length / ((to - from) / 1000);
  return {
    /** Waits for every call in flight, so the next phase starts on an idle coach. */
    stop: async () => {
      stopping = true;
      await Promise.all(loops);
    },
    /** 200s and 429s per second between two performance.now() readings, and the calls that failed otherwise. */
    rates: (from: number, to: number) => ({ okPerSec: within(okAt, from, to), busyPerSec: within(busyAt, from, to), failures: { ...failures } }),
  };
};

type AgentRates = ReturnType<ReturnType<typeof startAgentCallers>["rates"]>;
const failed = (r: AgentRates) => sum(Object.values(r.failures));

/** Agent callers while `during` runs, after they have settled; their rates over `during` alone. */
const withAgentLoad = async <T>(platform: Platform, keys: string[], callers: number, during: () => Promise<T>) => {
  const agents = startAgentCallers(platform.gatewayUrl, keys, callers);
  await sleep(SETTLE_MS);
  const from = performance.now();
  const result = await during();
  const to = performance.now();
  await agents.stop();
  return { result, agent: { callers, coachReplicas: platform.coaches(), ...agents.rates(from, to) } };
};

/** Share of one core that `cpuMs` of CPU over `seconds` is: the servers but the coach are pinned to one core. */
const corePercent = (cpuMs: number, seconds: number) => (cpuMs / (seconds * 1000)) * 100;

const expectOk = async (what: string, response: Promise<Response>) => {
  const res = await response;
  if (!res.ok) throw new Error(`${what} answered ${res.status} ${await res.text()}`);
};

await runBenchmark(async () => {
  console.log(`coach-scaling: model answers after ${MODEL_DELAY_MS} ms; POST /api/weight at ${opts.connections} connections, ` +
    `${opts.duration} s after ${opts.warmup} s warm-up; ${SCALING_CALLERS} agent callers for ${SCALING_SECONDS} s per replica count; ${pinning}, coach on CPU ${COACH_PLACEMENT.cpu} at nice ${COACH_PLACEMENT.nice}`);
  const db = await createBenchDatabase();
  const model = await startSlowModel();
  const platform = await startPlatform(db.url, {
    env: { coach: { ...coachEnv, COACH_MODEL_URL: model.url }, gateway: { COACH_TIMEOUT_MS: "25000" } },
    coach: COACH_PLACEMENT,
  });
  const weightKey = (await platform.account("weight")).key;
  const agentKeys = await Promise.all(Array.from({ length: AGENT_ACCOUNTS }, async (_, i) => (await platform.account(`agent${i}`)).key));

  const weight: LoadSpec = {
    url: `${platform.gatewayUrl}/api/weight`,
    method: "POST",
    headers: { authorization: `Bearer ${weightKey}`, "content-type": "application/json" },
    body: JSON.stringify({ weightKg: 80.5 }),
    connections: opts.connections,
    duration: opts.duration,
  };
  // One request each first: a wrong key or route would otherwise only show as a column of non-2xx or failures.
  await Promise.all([
    expectOk("POST /api/weight", fetch(weight.url, { method: "POST", headers: weight.headers!, body: weight.body!, signal: AbortSignal.timeout(10_000) })),
    expectOk("POST /api/agent", askCoach(platform.gatewayUrl, agentKeys[0]!)),
  ]);

  // With the server CPU the agent traffic takes on its own: what the loaded weight phase has to share its core with.
  const scaling = async () => {
    const { result: spent, agent } = await withAgentLoad(platform, agentKeys, SCALING_CALLERS, async () => (await cpuDuring(platform.pids, () => sleep(SCALING_SECONDS * 1000))).spentMs);
    const perSec = Object.fromEntries(Object.entries(spent).map(([name, ms]) => [name, ms / SCALING_SECONDS]));
    return { ...agent, serverCpuMsPerSec: sum(Object.entries(perSec).filter(([name]) => onServerCpu(name)).map(([, ms]) => ms)), cpuMsPerSecByProcess: perSec };
  };
  const oneReplica = await scaling();
  await platform.addCoach();
  const twoReplicas = await scaling();

  // Measured after the second replica started, so alone and loaded meet the same processes. Here a run's p99 is
  // set by whether one of the machine's stalls (up to ~100 ms: a bare pg insert server and a `SELECT 1` from the
  // load CPU meet them too) falls into its 10 s: with no agent traffic at all, one run's p99 was 5.7x another's.
  // So alone and loaded runs alternate, LOADED_ROUNDS loaded between one more alone, and the p99 of all the
  // latencies of each kind, pooled over its runs, is compared: the stalls of five or six runs, not the luck of one.
  await measure({ ...weight, duration: WEIGHT_WARMUP_SECONDS }, 0);
  const phases: Record<string, LoadFigures> = {};
  const most = (phases["POST /api/weight alone, as fast as answered"] = await measure(weight, 0, platform.pids));
  const calibration: { share: number; ratePerSec: number; figures: LoadFigures }[] = [];
  const withinTarget = (figures: LoadFigures) => clean(figures) && figures.p99 < LATENCY_TARGET_MS;
  for (const share of FIXED_RATE ? [] : STEADY_SHARES) {
    const ratePerSec = Math.round(most.okPerSec * share);
    let passed = 0;
    do {
      const figures = await measure({ ...weight, ratePerSec, duration: CALIBRATION_SECONDS }, 1, platform.pids);
      calibration.push({ share, ratePerSec, figures });
      phases[`POST /api/weight alone at ${ratePerSec}/s (${share} of the most, calibration #${calibration.length})`] = figures;
      if (!withinTarget(figures)) break;
    } while (++passed < CALIBRATION_PASSES);
    if (passed === CALIBRATION_PASSES) break;
  }
  const chosen = calibration.at(-1) ?? { share: FIXED_RATE / most.okPerSec, ratePerSec: FIXED_RATE, figures: most };
  const steady: LoadSpec = { ...weight, ratePerSec: chosen.ratePerSec, keepLatencies: true };
  const aloneRuns: LoadFigures[] = [];
  const runAlone = async () => {
    const figures = await measure(steady, opts.warmup, platform.pids);
    phases[`POST /api/weight alone at ${steady.ratePerSec}/s #${aloneRuns.push(figures)}`] = figures;
  };
  const loadedRuns: { figures: LoadFigures; agent: Awaited<ReturnType<typeof withAgentLoad>>["agent"]; orchestratorCorePercent: number }[] = [];
  await runAlone();
  for (let round = 1; round <= LOADED_ROUNDS; round++) {
    // This process runs the agent callers and the fake model on the load CPU, next to the weight sender: its CPU
    // time says whether the client side could have been what slowed the loaded run.
    const { result, agent } = await withAgentLoad(platform, agentKeys, LOADED_CALLERS, async () => {
      const before = process.cpuUsage();
      const figures = await measure(steady, opts.warmup, platform.pids);
      const { user, system } = process.cpuUsage(before);
      return { figures, orchestratorCorePercent: corePercent((user + system) / 1000, opts.warmup + opts.duration) };
    });
    loadedRuns.push({ ...result, agent });
    phases[`POST /api/weight at ${steady.ratePerSec}/s with ${LOADED_CALLERS} agent callers #${round}`] = result.figures;
    await runAlone();
  }

  const agentPhases = {
    "1 replica": oneReplica,
    "2 replicas": twoReplicas,
    ...Object.fromEntries(loadedRuns.map((run, i) => [`during loaded weight #${i + 1}`, run.agent])),
  };
  const pooledP99 = (runs: LoadFigures[]) => percentile(runs.flatMap((f) => f.latencies ?? []), 99);
  const aloneP99 = pooledP99(aloneRuns);
  const loadedP99 = pooledP99(loadedRuns.map((run) => run.figures));
  const p99Ratio = loadedP99 / aloneP99;
  const scale = twoReplicas.okPerSec / oneReplica.okPerSec;
  const aims: Aim[] = [
    {
      what: "POST /api/weight p99 loaded / alone",
      value: `pooled ${fixed(loadedP99, 0)} / pooled ${fixed(aloneP99, 0)} ms = ${fixed(p99Ratio, 2)}x`,
      aim: `<= ${fixed(P99_AIM, 2)}x`,
      met: [...aloneRuns, ...loadedRuns.map((run) => run.figures)].every(clean) && loadedRuns.every((run) => failed(run.agent) === 0)
        ? p99Ratio <= P99_AIM
        : null,
    },
    {
      what: "coach 200/s 2 replicas / 1 replica",
      value: `${fixed(twoReplicas.okPerSec)} / ${fixed(oneReplica.okPerSec)} = ${fixed(scale, 2)}x`,
      aim: `>= ${fixed(SCALING_AIM, 2)}x`,
      met: failed(oneReplica) + failed(twoReplicas) === 0 ? scale >= SCALING_AIM : null,
    },
  ];

  console.log(`\n${phaseTable(phases)}`);
  console.log(`\n${table([
    ["agent phase", "callers", "coach replicas", "200/s", "429/s", "server core %", "other failures"],
    ...Object.entries(agentPhases).map(([name, a]) => [
      name, a.callers, a.coachReplicas, fixed(a.okPerSec), fixed(a.busyPerSec), fixed("serverCpuMsPerSec" in a ? corePercent(a.serverCpuMsPerSec, 1) : NaN, 0),
      Object.entries(a.failures).map(([what, n]) => `${n} × ${what}`).join(", ") || "none",
    ]),
  ])}`);
  console.log(`\n${aimTable(aims)}`);
  console.log(`\n(info) ceiling: COACH_CONCURRENCY ${COACH_CONCURRENCY} per replica / ${MODEL_DELAY_MS / 1000} s = ` +
    `${fixed(COACH_CONCURRENCY / (MODEL_DELAY_MS / 1000))} replies/s per replica; model calls received: ${model.received.length}`);
  console.log(`(info) steady rate ${steady.ratePerSec}/s: ${chosen.share} of the most (${fixed(most.okPerSec)}/s), the first share at which ` +
    `the platform alone answered with p99 < ${LATENCY_TARGET_MS} ms ${CALIBRATION_PASSES} runs in a row, or the last tried (${calibration.map((c) => `${c.share}: ${c.figures.p99} ms`).join(", ")})`);
  const aloneP99s = aloneRuns.map((f) => f.p99);
  console.log(`(info) POST /api/weight p99 of each run alone: ${aloneP99s.join(", ")} ms (${fixed(Math.max(...aloneP99s) / Math.min(...aloneP99s), 2)}x ` +
    `from least to most with no agent traffic at all); with agent callers: ${loadedRuns.map((run) => run.figures.p99).join(", ")} ms; ` +
    `medians ${fixed(median(aloneP99s), 0)} alone, ${fixed(median(loadedRuns.map((run) => run.figures.p99)), 0)} ms loaded`);
  console.log(`(info) server CPU ms per 200 by process, with 2 replicas: ${Object.entries(twoReplicas.cpuMsPerSecByProcess)
    .map(([name, ms]) => `${name} ${fixed(ms / twoReplicas.okPerSec)}`).join(", ")} (429s included)`);
  // What the agent traffic cost the server core: its CPU per second in the loaded runs above the alone ones.
  const serverCpuPerSec = (f: LoadFigures) =>
    sum(Object.entries(f.cpuMsPerRequest ?? {}).filter(([name]) => onServerCpu(name)).map(([, ms]) => ms * f.requests)) / opts.duration;
  const agentShare = corePercent(median(loadedRuns.map((run) => serverCpuPerSec(run.figures))) - median(aloneRuns.map(serverCpuPerSec)), 1);
  console.log(`(info) the agent traffic took about ${fixed(agentShare, 0)} % of the server core during the loaded runs ` +
    `(and this process, agent callers + fake model, at most ${fixed(Math.max(...loadedRuns.map((run) => run.orchestratorCorePercent)), 0)} % of the load core)`);
  console.log(`\n${logSummary()}`);

  const steadyRate = { perSec: steady.ratePerSec, share: chosen.share, calibration: calibration.map((c) => ({ share: c.share, p99: c.figures.p99 })) };
  // Each phase's figures without its thousand latencies: the pooled p99s are in `aims`.
  const phaseFigures = Object.fromEntries(Object.entries(phases).map(([name, { latencies: _latencies, ...figures }]) => [name, figures]));
  const file = await writeResults("coach-scaling", { at: new Date().toISOString(), options: opts, pinning, modelDelayMs: MODEL_DELAY_MS, steadyRate, phases: phaseFigures, agentPhases, aims });
  console.log(`\nresults: ${file}`);
});
