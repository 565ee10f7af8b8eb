// Adapter factories for the schema engine, mending what the stock adapters get wrong for migrations.
import type { PGlite } from "@electric-sql/pglite";
import {
  DriverAdapterError,
  isDriverAdapterError,
  type SqlDriverAdapter,
  type SqlDriverAdapterFactory,
  type SqlMigrationAwareDriverAdapterFactory,
} from "@prisma/driver-adapter-utils";

import { pgliteExtensions } from "./pglite-extensions.ts";

type RunScript = (script: string) => Promise<unknown>;

/**
 * Wraps `inner` so a migration script goes to the server as one simple-protocol query, as the Prisma CLI
 * sends it. Why: PrismaPg splits scripts on every ";" (breaking `$$ ... ; ... $$` bodies and running the
 * pieces on different pooled connections), and PrismaPGlite does not await the script, so a failing
 * migration was recorded as applied. One multi-statement query also runs as one implicit transaction.
 */
export function scriptSafeFactory(inner: SqlDriverAdapterFactory, run: RunScript): SqlMigrationAwareDriverAdapterFactory {
  return {
    provider: inner.provider,
    adapterName: inner.adapterName,
    connect: async () => withScript(await inner.connect(), run),
    // Applying migrations never needs a shadow database; `new` uses shadowFactory() instead.
    connectToShadowDb: () => Promise.reject(new Error("no shadow database when applying migrations")),
  };
}

/**
 * In-memory PGlites for the main and the shadow connection of `migrations new`: diffing needs no real
 * database, and @prisma/adapter-pg's shadow support is broken (see packages/db/README.md).
 * close() is needed: the engine never disposes its main connection, and an open PGlite keeps node alive.
 */
export function shadowFactory(): { factory: SqlMigrationAwareDriverAdapterFactory; close(): Promise<void> } {
  const opened = new Set<PGlite>();
  const open = async (): Promise<SqlDriverAdapter> => {
    const [{ PGlite }, { PrismaPGlite }] = await Promise.all([import("@electric-sql/pglite"), import("pglite-prisma-adapter")]);
    const pglite = new PGlite("memory://", { extensions: await pgliteExtensions() });
    opened.add(pglite);
    const adapter = withScript(await new PrismaPGlite(pglite).connect(), (s) => pglite.exec(s));
    adapter.dispose = () => closeOnce(pglite);
    return adapter;
  };
  const closeOnce = async (pglite: PGlite) => {
    if (opened.delete(pglite)) await pglite.close();
  };
  return {
    factory: { provider: "postgres", adapterName: "pglite-memory", connect: open, connectToShadowDb: open },
    close: async () => void (await Promise.all([...opened].map(closeOnce))),
  };
}

function withScript(adapter: SqlDriverAdapter, run: RunScript): SqlDriverAdapter {
  adapter.executeScript = (script: string) => run(script).then(() => undefined, rethrow);
  const queryRaw = adapter.queryRaw.bind(adapter);
  const executeRaw = adapter.executeRaw.bind(adapter);
  adapter.queryRaw = (query) => queryRaw(query).catch(rethrow);
  adapter.executeRaw = (query) => executeRaw(query).catch(rethrow);
  return adapter;
}

// The engine reports only a DriverAdapterError's message; anything else surfaces as "External error id#0".
// pg and PGlite errors share the fields used here.
function rethrow(error: unknown): never {
  if (isDriverAdapterError(error)) throw error;
  const e = error as { code?: unknown; message?: unknown; severity?: unknown; detail?: string; hint?: string; column?: string };
  const code = typeof e?.code === "string" ? e.code : "N/A";
  const message = typeof e?.message === "string" ? e.message : String(error);
  throw new DriverAdapterError({
    kind: "postgres",
    code,
    severity: typeof e?.severity === "string" ? e.severity : "ERROR",
    message,
    detail: e?.detail,
    column: e?.column,
    hint: e?.hint,
    originalCode: code,
    originalMessage: message,
  });
}
