import { fileURLToPath } from "node:url";
import pg from "pg";
import { freePort, spawnServer, waitReady } from "./services.ts";

const SCHEMA = "bench_baseline";

/**
 * Starts baseline-server.ts on the server CPU, against copies of body-metrics' weight_reading and nutrition's
 * food_item (LIKE … INCLUDING ALL: same columns, defaults, primary key and indexes) in a schema of its own of the
 * same database.
 */
export const startBaseline = async (databaseUrl: string, accountId: string) => {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA ${SCHEMA}`);
    await client.query(`CREATE TABLE ${SCHEMA}.weight_reading (LIKE body_metrics.weight_reading INCLUDING ALL)`);
    await client.query(`CREATE TABLE ${SCHEMA}.food_item (LIKE nutrition.food_item INCLUDING ALL)`);
  } finally {
    await client.end();
  }
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawnServer("baseline", fileURLToPath(new URL("./baseline-server.ts", import.meta.url)), {
    ...process.env,
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    BASELINE_SCHEMA: SCHEMA,
    BASELINE_ACCOUNT_ID: accountId,
  });
  await waitReady("baseline", url, child);
  return { url, pid: child.pid ?? -1 };
};
