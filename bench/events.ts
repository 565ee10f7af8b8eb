// pnpm bench:events [--writes 200]
// How long a food write's event takes to reach other consumers and its daily total, for an account with a long
// history, on the multi-process platform (PostgreSQL + NATS).
import { parseArgs } from "node:util";
import { runBenchmark } from "./support/cleanup.ts";
import { pinForRun } from "./support/cpu.ts";
import { createBenchDatabase, withClient } from "./support/database.ts";
import { lagTable, measureEventLag } from "./support/event-lag.ts";
import { logSummary } from "./support/logs.ts";
import { machine } from "./support/machine.ts";
import { writeResults } from "./support/report.ts";
import { seedHistory } from "./support/seed.ts";
import { startPlatform } from "./support/services.ts";

const { values } = parseArgs({ args: process.argv.slice(2).filter((a) => a !== "--"), options: { writes: { type: "string", default: "200" } } });
const writes = Number(values.writes);
if (!Number.isInteger(writes) || writes < 1 || writes > 10_000) throw new Error("--writes must be a whole number from 1 to 10000");
const pinning = pinForRun();

await runBenchmark(async () => {
  console.log(`events: ${writes} sequential food writes; ${pinning}`);
  const date = new Date().toISOString().slice(0, 10);
  const db = await createBenchDatabase();
  const platform = await startPlatform(db.url);
  const account = await platform.account("events");
  const lag = await withClient(db.url, async (client) => {
    await seedHistory(client, account.accountId, date);
    return measureEventLag(client, { gatewayUrl: platform.gatewayUrl, key: account.key, accountId: account.accountId, date, namespace: platform.namespace, writes });
  });
  console.log(`\nevent lag over ${lag.writes} sequential food writes (${date})${lag.missed ? `, ${lag.missed} not seen within 10 s` : ""}:`);
  console.log(lagTable(lag));
  console.log(`\n${logSummary()}`);
  console.log(`\nresults: ${await writeResults("events", { at: new Date().toISOString(), machine: machine(), pinning, eventLag: lag })}`);
});
