import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { migrate, openDatabase, servicePrisma, type Database } from "@fit/db";

/**
 * A database of its own for one test file, dropped afterwards, so test files never see each other's rows
 * and can run in parallel.
 */
export const createTestDatabase = async (serverUrl: string) => {
  const name = `fit_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
};

/** A short random tag, e.g. to keep one test file's NATS subjects and streams apart from another's. */
export const uniqueTag = (prefix = "t") => `${prefix}${randomBytes(4).toString("hex")}`;

/**
 * A service's store on an in-memory PGlite with the service's migrations applied, for the calling file's tests:
 * opened before them, closed after. `db` and `store` are there once its tests run.
 */
export const storeOnMemoryDatabase = <S extends { close(): Promise<unknown> }>(
  { schema, prismaDir }: { schema: string; prismaDir: string },
  createStore: (db: Database) => S,
) => {
  const memory = {} as { db: Database; store: S };
  beforeAll(async () => {
    memory.db = await openDatabase({ schema, dataDir: "memory://" });
    await migrate(memory.db, servicePrisma(prismaDir));
    memory.store = createStore(memory.db);
  });
  afterAll(async () => {
    await memory.store?.close();
    await memory.db?.close();
  });
  return memory;
};
