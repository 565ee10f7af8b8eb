// pnpm bench:limits [--requests 400]
// What sharing the rate-limit counters costs one request: the same gateway (same PostgreSQL database, same
// account) once with the in-process bus (counters in memory) and once on NATS (counters in JetStream KV,
// docs/decisions/0023-shared-rate-limit-counters.md), sequential requests alternated between the two, p50 of
// each and their difference. The route is an unknown /api path with a valid key: authentication, the
// per-account limit, then a 404, with no service behind it.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import { createInProcessBus, type Logger } from "@fit/bus";
import { adminSocketPath, buildGateway, loadGatewayConfig, requestAccountKey } from "@fit/gateway";
import { deleteNamespaceStreams, uniqueTag } from "@fit/testing";
import { onCleanup, runBenchmark } from "./support/cleanup.ts";
import { createBenchDatabase } from "./support/database.ts";
import { NATS_URL } from "./support/nats.ts";
import { percentile } from "./support/stats.ts";

const { values } = parseArgs({ options: { requests: { type: "string", default: "400" } } });
const REQUESTS = Number(values.requests);
const WARMUP = 50;
const silent: Logger = { debug() {}, info() {}, warn() {}, error() {} };

const startGateway = async (env: Record<string, string>, shared: boolean) => {
  const dataDir = await mkdtemp(join(tmpdir(), "fit-bench-limits-"));
  onCleanup(() => rm(dataDir, { recursive: true, force: true }));
  const bus = shared ? undefined : createInProcessBus({ logger: silent });
  const app = await buildGateway({ config: loadGatewayConfig({ ...env, DATA_DIR: dataDir }), bus });
  onCleanup(async () => {
    await app.close();
    await bus?.close();
  });
  return { url: await app.listen({ host: "127.0.0.1", port: 0 }), dataDir };
};

const timed = async (url: string, key: string) => {
  const start = performance.now();
  const response = await fetch(`${url}/api/bench-nothing`, { headers: { authorization: `Bearer ${key}` } });
  await response.arrayBuffer();
  if (response.status !== 404) throw new Error(`expected 404, got ${response.status}`);
  return performance.now() - start;
};

await runBenchmark(async () => {
  const database = await createBenchDatabase();
  const namespace = uniqueTag("bench");
  onCleanup(() => deleteNamespaceStreams(NATS_URL, namespace));
  const env = {
    DATABASE_URL: database.url,
    LOG_LEVEL: "silent",
    INTERNAL_ASSERTION_SECRET: randomBytes(32).toString("hex"),
    BETTER_AUTH_SECRET: randomBytes(32).toString("hex"),
    RATE_LIMIT_PER_MINUTE: String(10 * (REQUESTS + WARMUP)),
  };
  const memory = await startGateway(env, false);
  const kv = await startGateway({ ...env, NATS_URL, NATS_NAMESPACE: namespace }, true);
  const issued = await requestAccountKey(adminSocketPath(memory.dataDir), `${uniqueTag("bench")}@example.com`, {});
  if (!issued) throw new Error("the gateway's admin socket did not answer");

  const samples = { memory: [] as number[], kv: [] as number[] };
  for (let i = 0; i < WARMUP + REQUESTS; i++) {
    // Alternated, so drift (other processes on the 2 cores, the database warming up) hits both sides alike.
    const [m, k] = [await timed(memory.url, issued.key), await timed(kv.url, issued.key)];
    if (i < WARMUP) continue;
    samples.memory.push(m);
    samples.kv.push(k);
  }
  const row = (name: string, s: number[]) => `${name.padEnd(28)} p50 ${percentile(s, 50).toFixed(3)} ms   p99 ${percentile(s, 99).toFixed(3)} ms`;
  console.log(`${REQUESTS} sequential requests each (after ${WARMUP} warm-up), alternated:`);
  console.log(row("memory store (in-process)", samples.memory));
  console.log(row("NATS KV store (shared)", samples.kv));
  console.log(`added p50: ${(percentile(samples.kv, 50) - percentile(samples.memory, 50)).toFixed(3)} ms`);
});
