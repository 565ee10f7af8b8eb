import { inject } from "vitest";
import type { Database } from "@fit/db";
import { openServiceDatabase, type ServiceDatabase } from "@fit/service-kit";
import { createTestDatabase } from "./databases.ts";

/**
 * `count` replicas of one service's database on a PostgreSQL database of their own, each with its own pool as
 * separate processes would have; `close` closes them and drops the database.
 */
export const openReplicaDatabases = async (service: ServiceDatabase, count: number, poolSize: number) => {
  const database = await createTestDatabase(inject("databaseUrl"));
  const replicas: Database[] = [];
  for (let i = 0; i < count; i++) {
    replicas.push(await openServiceDatabase(service, { DATABASE_URL: database.url, DATA_DIR: "unused" }, poolSize));
  }
  return {
    replicas,
    close: async () => {
      await Promise.all(replicas.map((db) => db.close()));
      await database.drop();
    },
  };
};
