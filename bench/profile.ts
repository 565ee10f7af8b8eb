// pnpm bench:profile [post-weight|get-weight|post-food|dashboard|dashboard-history|agent] [--duration 8] [--connections 50]
// One path of bench/targets.ts under load on its own, for looking at where the time goes: run it with
// BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" and every server writes a CPU profile on exit.
// The bundles keep the source's identifiers, so a profile names functions as the source does
// (docs/decisions/0051-bundles-keep-their-identifiers.md).
import { parseArgs } from "node:util";
import { runBenchmark } from "./support/cleanup.ts";
import { pinForRun } from "./support/cpu.ts";
import { createBenchDatabase, withClient } from "./support/database.ts";
import { measure, SHARED_SERVERS, untilQuiet, type LoadSpec } from "./support/load.ts";
import { logSummary } from "./support/logs.ts";
import { seedHistory, seedRecentWeighIns } from "./support/seed.ts";
import { startPlatform } from "./support/services.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { duration: { type: "string", default: "8" }, connections: { type: "string", default: "50" } },
});
pinForRun();

await runBenchmark(async () => {
  const db = await createBenchDatabase();
  const name = positionals[0] ?? "post-weight";
  // The coach's daily quotas guard a model's bill; the built-in estimator answers here, and a quota would only
  // turn the load into 429s.
  const platform = await startPlatform(db.url, { env: { coach: { COACH_DAILY_CALLS: "1000000000", COACH_DAILY_TOKENS: "1000000000" } } });
  const { key, accountId } = await platform.account("profiled");
  const today = new Date().toISOString().slice(0, 10);
  // The account of bench/targets.ts's heavy dashboard: years of food and thousands of weigh-ins.
  if (name === "dashboard-history") await withClient(db.url, (client) => seedHistory(client, accountId, today));
  // bench/targets.ts reads the weigh-ins its write phase left: a full page of 50 and a cursor to the next.
  if (name === "get-weight") await withClient(db.url, (client) => seedRecentWeighIns(client, accountId, 60));
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const paths: Record<string, Omit<LoadSpec, "connections" | "duration">> = {
    "post-weight": { url: `${platform.gatewayUrl}/api/weight`, method: "POST", headers, body: "{\"weightKg\":80.5}" },
    "get-weight": { url: `${platform.gatewayUrl}/api/weight`, method: "GET", headers },
    "post-food": {
      url: `${platform.gatewayUrl}/api/nutrition/items`, method: "POST", headers,
      body: JSON.stringify({ date: today, name: "oats", kcal: 380, proteinG: 13, meal: "breakfast" }),
    },
    dashboard: { url: `${platform.gatewayUrl}/api/dashboard?date=${today}`, method: "GET", headers },
    "dashboard-history": { url: `${platform.gatewayUrl}/api/dashboard?date=${today}`, method: "GET", headers },
    // What an agent call asks of the rest of the platform (forwarding, grounding reads) without a model's wait.
    agent: { url: `${platform.gatewayUrl}/api/agent`, method: "POST", headers, body: JSON.stringify({ messages: [{ role: "user", content: "Was a bowl of porridge with a banana a good breakfast?" }] }) },
  };
  const path = paths[name];
  if (!path) throw new Error(`unknown path ${name}: one of ${Object.keys(paths).join(", ")}`);
  const watched = { ...platform.pids, ...SHARED_SERVERS };
  const duration = Number(values.duration);
  const figures = await measure({ ...path, connections: Number(values.connections), duration }, 2, watched);
  console.log(`${name}: ${JSON.stringify(figures)}`);
  // What the load left behind (outbox rows not yet published, events not yet consumed) is work its req/s leaves out.
  const behindMs = await untilQuiet(watched);
  console.log(behindMs === null
    ? "still busy 120 s after the load"
    : `idle again ${(behindMs / 1000).toFixed(1)} s after the load: ${Math.round(figures.requests / (duration + behindMs / 1000))} req/s with that work counted`);
  const memory = await platform.memory();
  console.log(`RSS after the load: ${memory.map((m) => `${m.name} ${m.memory?.rssMb ?? "?"} MB`).join(", ")}`);
  console.log(logSummary());
});
