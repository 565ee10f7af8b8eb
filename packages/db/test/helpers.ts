// Shared by @fit/db's tests: the fixture service (prisma/ folder + generated client) and throwaway copies of it.
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { randomUUID } from "node:crypto";
import { PrismaClient } from "./fixture/generated/client.ts";
import type { Database, ServicePrisma } from "../src/index.ts";

const fixtureDir = fileURLToPath(new URL("./fixture", import.meta.url));

function prismaFiles(serviceDir: string): ServicePrisma {
  return {
    schemaPath: path.join(serviceDir, "prisma", "schema.prisma"),
    migrationsDir: path.join(serviceDir, "prisma", "migrations"),
  };
}

export const fixture = prismaFiles(fixtureDir);

/** A scratch folder removed by the returned cleanup. */
export async function scratch(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), "fit-db-test-"));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** Copies the fixture's prisma/ folder into `dir`/svc so a test can change it. */
export async function copyFixture(dir: string): Promise<ServicePrisma & { serviceDir: string }> {
  const serviceDir = path.join(dir, "svc");
  await cp(path.join(fixtureDir, "prisma"), path.join(serviceDir, "prisma"), { recursive: true });
  return { serviceDir, ...prismaFiles(serviceDir) };
}

export function clientFor(db: Database): PrismaClient {
  return new PrismaClient({ adapter: db.adapter });
}

export function outboxEvent(subject: string, createdAt = new Date()) {
  return { id: randomUUID(), subject, payload: { subject, n: Math.random() }, createdAt };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
