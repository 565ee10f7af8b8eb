import { randomBytes } from "node:crypto";
import pg from "pg";
import { onCleanup } from "./cleanup.ts";

const SERVER_URL = process.env["BENCH_DATABASE_URL"] ?? "postgres://postgres@127.0.0.1:5432/postgres";

export const withClient = async <T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
};

/** A database of this run's own, dropped at cleanup (FORCE: a crashed service may still hold connections). */
export const createBenchDatabase = async () => {
  const name = `fit_bench_${randomBytes(5).toString("hex")}`;
  await withClient(SERVER_URL, (c) => c.query(`CREATE DATABASE ${name}`));
  onCleanup(() => withClient(SERVER_URL, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)));
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
};

/** Calls `done` every `everyMs` until it is true: the ms that took, or null after `timeoutMs`. */
export const waitUntil = async (done: () => Promise<boolean>, timeoutMs: number, everyMs = 50): Promise<number | null> => {
  const start = performance.now();
  while (performance.now() - start < timeoutMs) {
    if (await done()) return performance.now() - start;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return null;
};

/** The `n` of a `SELECT count(*) AS n …`. */
export const countOf = async (client: pg.Client, sql: string, params: unknown[] = []) =>
  Number((await client.query<{ n: string }>(sql, params)).rows[0]?.n ?? NaN);
