import { ping, type Database } from "@fit/db";
import { PrismaClient } from "./generated/client.ts";

/** The identity schema's client; better-auth reads and writes it through its Prisma adapter. */
export const createIdentityStore = (db: Database) => {
  const prisma = new PrismaClient({ adapter: db.adapter });
  return {
    prisma,
    ping: () => ping(prisma),
    close: () => prisma.$disconnect(),
  };
};
