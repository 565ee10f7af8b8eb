// pnpm bench:foods [--requests 2000]
// Food search as a person uses it (docs/decisions/0063-food-database.md): GET /api/foods through the gateway of the
// multi-process platform (PostgreSQL + NATS) over the whole USDA table, one request after another as someone types,
// for a mix of whole words, words being typed, plurals and typos. Prints p50/p95/p99 and the slowest queries, and
// the machine's load average, since a shared machine's figures mean little without it. Aim: p95 under 20 ms.
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { runBenchmark } from "./support/cleanup.ts";
import { createBenchDatabase } from "./support/database.ts";
import { machine } from "./support/machine.ts";
import { aimTable, fixed, table, writeResults } from "./support/report.ts";
import { startPlatform } from "./support/services.ts";
import { percentile } from "./support/stats.ts";

const { values } = parseArgs({ args: process.argv.slice(2).filter((a) => a !== "--"), options: { requests: { type: "string", default: "2000" } } });
const requests = Number(values.requests);
if (!Number.isInteger(requests) || requests < 100 || requests > 100_000) throw new Error("--requests must be a whole number from 100 to 100000");

const AIM_P95_MS = 20;

/** What people type: whole names, names half typed (search-as-you-type), plurals, misspellings, several words. */
const QUERIES = [
  "banana", "ban", "bana", "banan", "bananas", "apple", "apples", "aple", "egg", "eggs", "egg white", "scrambled egg",
  "chicken breast", "chiken brest", "chicken", "chick", "grilled chicken", "greek yogurt", "yogurt", "yoghurt", "greek yog",
  "rice", "white rice cooked", "brown rice", "oatmeal", "oats", "oat", "milk", "whole milk", "skim milk", "almond milk",
  "bread", "whole wheat bread", "brocoli", "broccoli", "spinach", "spinach raw", "salmon", "salmom", "tuna", "canned tuna",
  "beef", "ground beef", "steak", "pork chop", "turkey breast", "cheddar cheese", "cheese", "chedar", "butter", "olive oil",
  "peanut butter", "penut butter", "avocado", "avacado", "sweet potato", "potato", "potatos", "pasta", "spaghetti",
  "orange juice", "orange", "strawberries", "strawbery", "blueberries", "almonds", "walnuts", "lentils", "black beans",
  "tofu", "hummus", "cottage cheese", "protein powder", "whey", "coffee", "tea", "beer", "wine", "chocolate", "dark chocolate",
];

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

await runBenchmark(async () => {
  const db = await createBenchDatabase();
  const platform = await startPlatform(db.url);
  const { key } = await platform.account("foods");
  const get = async (path: string) => {
    const started = performance.now();
    const response = await fetch(`${platform.gatewayUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });
    const body = (await response.json()) as unknown[];
    const ms = performance.now() - started;
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${JSON.stringify(body)}`);
    return { ms, found: body.length };
  };
  const search = (q: string) => get(`/api/foods?q=${encodeURIComponent(q)}&limit=20`);

  // Each query once first: connections opened, statements prepared, the tables in the page cache.
  for (const q of QUERIES) await search(q);
  const load = loadavg();
  const times: number[] = [];
  const byQuery = new Map<string, number[]>();
  const empty = new Set<string>();
  for (let i = 0; i < requests; i++) {
    const q = QUERIES[i % QUERIES.length]!;
    const { ms, found } = await search(q);
    times.push(ms);
    byQuery.set(q, byQuery.get(q) ?? []);
    byQuery.get(q)!.push(ms);
    if (found === 0) empty.add(q);
  }
  // The same number of the cheapest read there is (an empty day's items: one indexed lookup), for what the
  // platform alone costs on this machine now: gateway, credential check, forwarding, the service's HTTP.
  const baseline: number[] = [];
  for (let i = 0; i < requests; i++) baseline.push((await get("/api/nutrition/items?date=2026-11-20")).ms);
  const loadAfter = loadavg();

  const figures = { p50: percentile(times, 50), p95: percentile(times, 95), p99: percentile(times, 99), max: Math.max(...times) };
  const platformOnly = { p50: percentile(baseline, 50), p95: percentile(baseline, 95) };
  const slowest = [...byQuery].map(([q, ms]) => ({ q, p95: percentile(ms, 95) })).sort((a, b) => b.p95 - a.p95).slice(0, 8);
  console.log(`GET /api/foods?q=…&limit=20 through the gateway, ${requests} requests one after another, ${QUERIES.length} queries`);
  console.log(`load average before ${load.map((l) => fixed(l, 2)).join(" ")}, after ${loadAfter.map((l) => fixed(l, 2)).join(" ")} (${machine().cores} cores)\n`);
  console.log(table([["p50 ms", "p95 ms", "p99 ms", "max ms"], [fixed(figures.p50, 2), fixed(figures.p95, 2), fixed(figures.p99, 2), fixed(figures.max, 2)]]));
  console.log(`\nthe platform alone (GET /api/nutrition/items of an empty day): p50 ${fixed(platformOnly.p50, 2)} ms, p95 ${fixed(platformOnly.p95, 2)} ms`);
  console.log(`\nslowest queries (p95 ms): ${slowest.map((s) => `${s.q} ${fixed(s.p95, 1)}`).join(", ")}`);
  if (empty.size) console.log(`queries that found nothing: ${[...empty].join(", ")}`);
  console.log(`\n${aimTable([{ what: "search p95", value: `${fixed(figures.p95, 2)} ms`, aim: `< ${AIM_P95_MS} ms`, met: figures.p95 < AIM_P95_MS }])}`);
  const results = {
    at: new Date().toISOString(), machine: machine(), loadAverage: { before: load, after: loadAfter }, requests,
    ms: Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, round(v)])),
    platformOnlyMs: { p50: round(platformOnly.p50), p95: round(platformOnly.p95) }, slowest, empty: [...empty],
  };
  console.log(`\nresults: ${await writeResults("foods", results)}`);
});
