// Test helpers for the identity module: a migrated database (in-memory PGlite, or PostgreSQL in a schema of
// its own), an identity over it whose magic links land in an array, and a counter of SQL round trips.
import { fileURLToPath } from "node:url";
import { migrate, openDatabase, servicePrisma, type Database } from "@fit/db";
import { createIdentity, type Identity, type IdentityOptions } from "../src/identity/identity.ts";
import type { MagicLinkMessage } from "../src/identity/mailer.ts";
import { PrismaClient } from "../src/store/generated/client.ts";
import { createIdentityStore, type IdentityStore } from "../src/store/identity-store.ts";

const prismaDir = fileURLToPath(new URL("../prisma/", import.meta.url));
const TEST_SECRET = "test-secret-test-secret-test-secret-0123";

export interface IdentityDb {
  db: Database;
  store: IdentityStore;
  /** For tests to arrange and inspect rows directly. */
  prisma: PrismaClient;
  /** SQL statements sent since the last reset (queries and commands, inside transactions too). */
  queries: { count: number; sql: string[]; reset(): void };
  close(): Promise<void>;
}

export async function openIdentityDb(options: { url?: string; schema?: string } = {}): Promise<IdentityDb> {
  const db = await openDatabase({ url: options.url, schema: options.schema ?? "identity", dataDir: "memory://", poolSize: 4 });
  await migrate(db, servicePrisma(prismaDir));
  const queries = {
    count: 0,
    sql: [] as string[],
    reset() {
      queries.count = 0;
      queries.sql = [];
    },
  };
  const adapter = counting(db.adapter, queries);
  const store = createIdentityStore(db, adapter);
  const prisma = new PrismaClient({ adapter });
  return {
    db,
    store,
    prisma,
    queries,
    async close() {
      await store.close();
      await prisma.$disconnect();
      await db.close();
    },
  };
}

export function createTestIdentity(store: IdentityStore, overrides: Partial<IdentityOptions> = {}) {
  const mails: MagicLinkMessage[] = [];
  const identity: Identity = createIdentity({
    store,
    baseUrl: "http://localhost:3000",
    secret: TEST_SECRET,
    trustedOrigins: ["http://localhost:3000"],
    mailer: {
      send: (message) => {
        mails.push(message);
        return Promise.resolve();
      },
    },
    ...overrides,
  });
  return { identity, mails };
}

type AdapterFactory = Database["adapter"];
type Adapter = Awaited<ReturnType<AdapterFactory["connect"]>>;

// Wraps the adapter so every statement it runs, directly or in a transaction, is counted.
function counting(inner: AdapterFactory, counter: { count: number; sql: string[] }): Pick<AdapterFactory, "provider" | "adapterName" | "connect"> {
  const wrap = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(obj, prop, receiver) {
        const value = Reflect.get(obj, prop, receiver) as unknown;
        if (typeof value !== "function") return value;
        if (prop === "queryRaw" || prop === "executeRaw") {
          return (...args: unknown[]) => {
            counter.count++;
            counter.sql.push((args[0] as { sql?: string } | undefined)?.sql ?? "");
            return (value as (...a: unknown[]) => unknown).apply(obj, args);
          };
        }
        if (prop === "startTransaction") {
          return async (...args: unknown[]) => wrap(await (value as (...a: unknown[]) => Promise<object>).apply(obj, args));
        }
        return (value as (...a: unknown[]) => unknown).bind(obj);
      },
    });
  return {
    provider: inner.provider,
    adapterName: inner.adapterName,
    connect: async (): Promise<Adapter> => wrap(await inner.connect()),
  };
}

export const ORIGIN = "http://localhost:3000";
export type TestIdentity = ReturnType<typeof createTestIdentity>;

/** POSTs a magic-link request as a browser on `origin` would; `url` is the link the mailer received, if any. */
export async function requestLink(target: TestIdentity, email: string, body: Record<string, string> = { callbackURL: "/" }, origin = ORIGIN) {
  const sent = target.mails.length;
  const response = await target.identity.handler(
    new Request(`${origin}/api/auth/sign-in/magic-link`, {
      method: "POST",
      headers: { "content-type": "application/json", origin },
      body: JSON.stringify({ email, ...body }),
    }),
  );
  return { response, url: target.mails.length > sent ? target.mails.at(-1)?.url : undefined };
}

/** Requests a link and follows it; `cookie` is the session cookie as a browser would send it back. */
export async function signIn(target: TestIdentity, email: string, origin = ORIGIN) {
  const { url } = await requestLink(target, email, { callbackURL: "/" }, origin);
  if (!url) throw new Error("no magic link was sent");
  const response = await target.identity.handler(new Request(url));
  const setCookie = response.headers.getSetCookie().find((c) => c.includes("session_token=")) ?? "";
  return { response, url, setCookie, cookie: setCookie.split(";")[0] ?? "", email };
}
