import { randomBytes } from "node:crypto";
import pg from "pg";
import { onCleanup } from "./cleanup.ts";

export const SERVER_URL = process.env["BENCH_DATABASE_URL"] ?? "postgres://postgres@127.0.0.1:5432/postgres";

const onServer = async <T>(fn: (client: pg.Client) => Promise<T>): Promise<T> => {
  const client = new pg.Client({ connectionString: SERVER_URL });
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
  await onServer((c) => c.query(`CREATE DATABASE ${name}`));
  onCleanup(() => onServer((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)));
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
};
