import { randomBytes } from "node:crypto";
import pg from "pg";

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
