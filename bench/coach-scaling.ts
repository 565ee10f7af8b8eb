// pnpm bench:coach [--duration 10] [--connections 50] [--warmup 2]
// Two claims about the coach, with a fake model that answers after 2 s: its replicas add throughput (1 then 2
// replicas under a closed loop of /api/agent callers), and a crowd of slow /api/agent calls does not slow the
// rest of the API (POST /api/weight p99 through the gateway, alone and with 100 agent callers in flight).
import { startFakeOpenAi, type ChatRequest } from "@fit/testing";
import { onCleanup, runBenchmark } from "./support/cleanup.ts";
import { pinning, pinSelfToLoadCpu } from "./support/cpu.ts";
import { createBenchDatabase } from "./support/database.ts";
import { logSummary } from "./support/logs.ts";
import { clean, measure, type LoadFigures, type LoadSpec, type Watched } from "./support/load.ts";
import { cpuMsOf } from "./support/proc.ts";
import { aimTable, benchOptions, fixed, phaseTable, table, writeResults, type Aim } from "./support/report.ts";
import { startPlatform, type Platform } from "./support/services.ts";

const opts = benchOptions();
const MODEL_DELAY_MS = 2000;
const LOADED_CALLERS = 100;
/** Model calls one coach replica runs at once (with the model's delay, its ceiling in replies per second) and holds waiting. */
const COACH_CONCURRENCY = 16;
const COACH_QUEUE = 16;
/**
 * Twice what two replicas hold (16 running + 16 queued each): the queue group picks a replica at random and a
 * refused caller sits out its 1 s Retry-After, so with barely more callers than places some places stay empty
 * (64 callers gave 1.78-1.80x, 96 gave 1.78-1.93x).
 */
const SCALING_CALLERS = 2 * 2 * (COACH_CONCURRENCY + COACH_QUEUE);
const SCALING_SECONDS = 12;
const WEIGHT_WARMUP_SECONDS = 5;
/** Callers need one model delay before the first replies come back: only then is the load what it will stay. */
const SETTLE_MS = MODEL_DELAY_MS + 1000;
const AGENT_ACCOUNTS = 8;
/** A quota refusal says "until midnight": waiting that long would hang the run, so a caller waits at most this. */
const MAX_RETRY_AFTER_S = 5;
const P99_AIM = 1.2;
const SCALING_AIM = 1.8;
const QUESTION = JSON.stringify({ messages: [{ role: "user", content: "Was a bowl of porridge with a banana a good breakfast?" }] });
pinSelfToLoadCpu();

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
  const loop = async (key: string) => {
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
  const loops = Array.from({ length: callers }, (_, i) => loop(keys[i % keys.length]!));
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

/** CPU time (ms) the server processes spend, all together, while `work` runs. */
const cpuSpent = async (pids: Watched, work: () => Promise<unknown>) => {
  const cpu = async () => sum(await Promise.all(Object.values(pids).map(cpuMsOf)));
  const before = await cpu();
  await work();
  return (await cpu()) - before;
};

/** Share of one core that `cpuMs` of CPU over `seconds` is: all servers are pinned to one core. */
const corePercent = (cpuMs: number, seconds: number) => (cpuMs / (seconds * 1000)) * 100;

type AgentCost = Record<"okPerSec" | "busyPerSec" | "serverCpuMsPerSec", number>;
/**
 * Server CPU (ms) one 200 and one 429 of /api/agent cost, from two phases with different mixes of both: each
 * phase's CPU per second is ok × a + busy × b, two equations for the two unknowns.
 */
const costPerAnswer = (p: AgentCost, q: AgentCost) => {
  const det = p.okPerSec * q.busyPerSec - q.okPerSec * p.busyPerSec;
  return {
    okMs: (p.serverCpuMsPerSec * q.busyPerSec - q.serverCpuMsPerSec * p.busyPerSec) / det,
    busyMs: (p.okPerSec * q.serverCpuMsPerSec - q.okPerSec * p.serverCpuMsPerSec) / det,
  };
};

const expectOk = async (what: string, response: Promise<Response>) => {
  const res = await response;
  if (!res.ok) throw new Error(`${what} answered ${res.status} ${await res.text()}`);
};

await runBenchmark(async () => {
  console.log(`coach-scaling: model answers after ${MODEL_DELAY_MS} ms; POST /api/weight at ${opts.connections} connections, ` +
    `${opts.duration} s after ${opts.warmup} s warm-up; ${SCALING_CALLERS} agent callers for ${SCALING_SECONDS} s per replica count; ${pinning}`);
  const db = await createBenchDatabase();
  const model = await startSlowModel();
  const platform = await startPlatform(db.url, {
    env: { coach: { ...coachEnv, COACH_MODEL_URL: model.url }, gateway: { COACH_TIMEOUT_MS: "25000" } },
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
    const { result: spent, agent } = await withAgentLoad(platform, agentKeys, SCALING_CALLERS, () => cpuSpent(platform.pids, () => sleep(SCALING_SECONDS * 1000)));
    return { ...agent, serverCpuMsPerSec: spent / SCALING_SECONDS };
  };
  const oneReplica = await scaling();
  await platform.addCoach();
  const twoReplicas = await scaling();

  // Measured after the second replica started, so alone and loaded meet the same processes. The weight path
  // still speeds up over its first seconds of load (a first run measured up to 30 % slower than the next), and
  // figures drift within a run: an unmeasured run first, then alone / loaded / alone again, and the loaded p99
  // against the mean of both alone ones, whose own ratio shows how much p99 moves with no agent traffic at all.
  await measure({ ...weight, duration: WEIGHT_WARMUP_SECONDS }, 0);
  const phases: Record<string, LoadFigures> = {};
  const alone = (phases["POST /api/weight alone"] = await measure(weight, opts.warmup, platform.pids));
  // This process runs the agent callers and the fake model on the load CPU, next to autocannon: its CPU time
  // says whether the client side could have been what slowed the loaded phase.
  const loadedRun = await withAgentLoad(platform, agentKeys, LOADED_CALLERS, async () => {
    const before = process.cpuUsage();
    const figures = await measure(weight, opts.warmup, platform.pids);
    const { user, system } = process.cpuUsage(before);
    return { figures, orchestratorCorePercent: corePercent((user + system) / 1000, opts.warmup + opts.duration) };
  });
  const loaded = (phases[`POST /api/weight with ${LOADED_CALLERS} agent callers`] = loadedRun.result.figures);
  const aloneAgain = (phases["POST /api/weight alone again"] = await measure(weight, opts.warmup, platform.pids));

  const agentPhases = { "1 replica": oneReplica, "2 replicas": twoReplicas, "during loaded weight": loadedRun.agent };
  const aloneP99 = (alone.p99 + aloneAgain.p99) / 2;
  const p99Ratio = loaded.p99 / aloneP99;
  const scale = twoReplicas.okPerSec / oneReplica.okPerSec;
  const aims: Aim[] = [
    {
      what: "POST /api/weight p99 loaded / alone",
      value: `${loaded.p99} / ${fixed(aloneP99, 0)} ms = ${fixed(p99Ratio, 2)}x`,
      aim: `<= ${fixed(P99_AIM, 2)}x`,
      met: [alone, loaded, aloneAgain].every(clean) && failed(loadedRun.agent) === 0 ? p99Ratio <= P99_AIM : null,
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
  console.log(`(info) POST /api/weight p99 alone: ${alone.p99} ms before, ${aloneAgain.p99} ms after the loaded phase ` +
    `(${fixed(aloneAgain.p99 / alone.p99, 2)}x with no agent traffic at all)`);
  const cost = costPerAnswer(oneReplica, twoReplicas);
  const agentShare = corePercent(loadedRun.agent.okPerSec * cost.okMs + loadedRun.agent.busyPerSec * cost.busyMs, 1);
  console.log(`(info) server CPU per /api/agent answer, solved from the two replica phases: 200 ${fixed(cost.okMs)} ms, 429 ${fixed(cost.busyMs)} ms; ` +
    `at the loaded phase's rates the agent traffic took about ${fixed(agentShare, 0)} % of the server core ` +
    `(and this process, agent callers + fake model, ${fixed(loadedRun.result.orchestratorCorePercent, 0)} % of the load core)`);
  console.log(`\n${logSummary()}`);

  const file = await writeResults("coach-scaling", { at: new Date().toISOString(), options: opts, pinning, modelDelayMs: MODEL_DELAY_MS, phases, agentPhases, agentCost: cost, aims });
  console.log(`\nresults: ${file}`);
});
