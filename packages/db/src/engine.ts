// Loads Prisma's schema engine (the one `prisma migrate` runs) from its WASM build, so migrations need no
// downloaded binary. The package's own entry imports the .wasm file as a module, which node/tsx refuse,
// hence the hand instantiation below.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { bindMigrationAwareSqlAdapterFactory, type SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import type * as Bg from "@prisma/schema-engine-wasm/schema_engine_bg";
import type { ServicePrisma } from "./migrate.ts";
import { readMigrations } from "./migrations-dir.ts";

export type SchemaEngine = Bg.SchemaEngine;
export type MigrationList = Bg.MigrationList;
export type SchemaFilter = Bg.SchemaFilter;

export const noFilters: SchemaFilter = { externalTables: [], externalEnums: [] };

// The 5 MB module is compiled once; every engine of the process shares it (wasm-bindgen's glue cannot be
// instantiated twice). migrate() avoids loading it at all when nothing is pending.
let loaded: Promise<typeof Bg> | undefined;

// The engine sleeps and times out (e.g. 10 s around its advisory lock) with setTimeout and never clears a
// timer it no longer needs, which kept one-shot commands alive 10 s after finishing. Its timers are tracked
// and cleared once no engine is running.
const timers = new Set<ReturnType<typeof setTimeout>>();
let running = 0;

function engineSetTimeout(fn: () => void, ms: number) {
  const timer = setTimeout(() => {
    timers.delete(timer);
    fn();
  }, ms >>> 0);
  timers.add(timer);
  return timer;
}

// The tsconfig's libs (ES2023, no DOM) declare no WebAssembly global, though node has one.
const wasmApi = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
interface WasmApi {
  instantiate(bytes: Uint8Array, imports: object): Promise<{ instance: { exports: Record<string, unknown> } }>;
}

/** Whether this thread has loaded the engine: on PostgreSQL it runs on a thread of its own (postgres-migrations.ts). */
export const engineLoadedHere = () => loaded !== undefined;

function loadWasm(): Promise<typeof Bg> {
  loaded ??= (async () => {
    const bg = await import("@prisma/schema-engine-wasm/schema_engine_bg");
    const require = createRequire(import.meta.url);
    const dir = path.dirname(require.resolve("@prisma/schema-engine-wasm/schema_engine_bg"));
    const bytes = await readFile(path.join(dir, "schema_engine_bg.wasm"));
    const imports: Record<string, unknown> = { ...bg };
    for (const name of Object.keys(bg)) if (name.startsWith("__wbg_setTimeout_")) imports[name] = engineSetTimeout;
    const { instance } = await wasmApi.instantiate(bytes, { "./schema_engine_bg.js": imports });
    bg.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    return bg;
  })();
  return loaded;
}

/** Runs `fn` with an engine bound to `factory`, freeing the engine afterwards. */
export async function withEngine<T>(
  factory: SqlMigrationAwareDriverAdapterFactory,
  schema: { path: string; content: string },
  fn: (engine: SchemaEngine) => Promise<T>,
): Promise<T> {
  const bg = await loadWasm();
  const logs: string[] = [];
  running++;
  try {
    const engine = await bg.SchemaEngine.new(
      { datamodels: [[schema.path, schema.content]] },
      (log: string) => void logs.push(log),
      bindMigrationAwareSqlAdapterFactory(factory),
    );
    try {
      return await fn(engine);
    } finally {
      engine.free();
    }
  } catch (error) {
    throw engineError(error, logs);
  } finally {
    if (--running === 0) {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    }
  }
}

/** Applies `service`'s migrations not yet recorded, oldest first, through an engine bound to `factory`; returns their names. */
export async function applyMigrations(factory: SqlMigrationAwareDriverAdapterFactory, service: ServicePrisma): Promise<string[]> {
  const schema = { path: service.schemaPath, content: await readFile(service.schemaPath, "utf8") };
  const migrationsList = await readMigrations(service.migrationsDir);
  const out = await withEngine(factory, schema, (engine) => engine.applyMigrations({ migrationsList, filters: noFilters }));
  return out.appliedMigrationNames;
}

// The engine rejects with a plain object or a JSON string; turn it into an Error a person can read.
function engineError(error: unknown, logs: string[]): Error {
  if (error instanceof Error) return error;
  const text = typeof error === "string" ? error : JSON.stringify(error);
  let message = text;
  try {
    const parsed = JSON.parse(text) as { message?: string; error?: string };
    message = parsed.message ?? parsed.error ?? text;
  } catch {
    // not JSON: keep the text as it is
  }
  return new Error(`schema engine: ${message}${logs.length ? `\n${logs.slice(-5).join("\n")}` : ""}`);
}
