// pnpm bench:backlog [--events 3000]
// How fast insights works through a backlog of weigh-in events (docs/decisions/0088-batched-event-handling.md): the
// backlog a restart after downtime or a scale's imported history leaves. Insights is paused (SIGSTOP) while
// `--events` weigh-ins are logged through the gateway, then resumed; the figure is the time until its copy holds
// them all, and its CPU per event meanwhile. PostgreSQL and NATS as in the other benchmarks.
import { parseArgs } from "node:util";
import { runBenchmark } from "./support/cleanup.ts";
import { pinForRun } from "./support/cpu.ts";
import { countOf, createBenchDatabase, waitUntil, withClient } from "./support/database.ts";
import { logSummary } from "./support/logs.ts";
import { cpuSample, cpuSpent } from "./support/proc.ts";
import { startPlatform } from "./support/services.ts";

const { values } = parseArgs({ args: process.argv.slice(2).filter((a) => a !== "--"), options: { events: { type: "string", default: "3000" } } });
const events = Number(values.events);
if (!Number.isInteger(events) || events < 1 || events > 100_000) throw new Error("--events must be a whole number from 1 to 100000");
const pinning = pinForRun();

await runBenchmark(async () => {
  console.log(`backlog: ${events} weigh-in events for insights; ${pinning}`);
  const db = await createBenchDatabase();
  const platform = await startPlatform(db.url);
  const { key, accountId } = await platform.account("backlog");
  const insights = platform.pids["insights"]!;
  const logWeight = async (body: object) => {
    const response = await fetch(`${platform.gatewayUrl}/api/weight`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`POST /api/weight: ${response.status} ${await response.text()}`);
  };
  await withClient(db.url, async (client) => {
    const copied = () => countOf(client, "SELECT count(*) AS n FROM insights.weight_reading WHERE account_id = $1", [accountId]);
    // Insights meets the account first, so the backlog is events, not one back-fill of the whole history.
    await logWeight({ weightKg: 80 });
    if ((await waitUntil(async () => (await copied()) === 1, 10_000)) === null) throw new Error("insights never copied the first weigh-in");

    process.kill(insights, "SIGSTOP");
    try {
      let next = 0;
      const logging = async () => {
        for (let i = next++; i < events; i = next++) await logWeight({ weightKg: 70 + (i % 100) / 10, ts: Date.now() - (i + 1) * 3_600_000 });
      };
      await Promise.all(Array.from({ length: 20 }, logging));
      // The relay publishes the last of them within its coalescing pause.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    } finally {
      process.kill(insights, "SIGCONT");
    }
    const before = await cpuSample(insights);
    const ms = await waitUntil(async () => (await copied()) === events + 1, 120_000, 10);
    if (ms === null) throw new Error(`insights had not copied ${events} weigh-ins after 120 s`);
    const cpuMs = cpuSpent(before, await cpuSample(insights));
    console.log(`drained ${events} events in ${ms.toFixed(0)} ms: ${Math.round((events / ms) * 1000)} events/s, insights ${((cpuMs / events) * 1000).toFixed(0)} µs of CPU per event`);
  });
  console.log(logSummary());
});
