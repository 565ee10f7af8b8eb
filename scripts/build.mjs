// Compiles a workspace package's entry points into one ES module each under its dist/ (docs/decisions/0026-compiled-runtime.md):
//   node ../../scripts/build.mjs src/main.ts [more entries...]   (run from the package folder)
// Workspace code (@fit/* and the package's own, generated Prisma clients included) and third-party packages are
// bundled, but for those that find files beside their own code or that telemetry instruments (STAY_EXTERNAL):
// node then resolves, reads and compiles a few hundred files at start instead of ~1 700
// (docs/decisions/0042-embedded-bundle.md). Those stay external, each import rewritten to the file it resolves to
// from its importer, since a bundle has no node_modules of its own that holds all of their dependencies.
// The output's whitespace and syntax are minified, its identifiers are not: V8 holds the source of every module it
// loads for as long as the process lives (docs/decisions/0049-minified-bundles-and-a-tighter-heap.md), and a
// function keeps the name the source gives it, in stack traces, CPU profiles and `.name`, with no run-time
// helper to restore it (docs/decisions/0051-bundles-keep-their-identifiers.md).
// `new URL("<relative>", import.meta.url)` keeps pointing where it did in the source (a migrations folder, a
// package.json); when it names a .ts file (a worker thread's entry) that file is compiled beside the bundle.
// Any other `import.meta.url` means the source file it is written in.
import { Buffer } from "node:buffer";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { builtinModules } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import * as esbuild from "esbuild";

const outdir = path.resolve("dist");
const builtins = new Set(builtinModules);
/**
 * Loaded from node_modules, not bundled: PGlite and Prisma's schema engine read their .wasm and data files beside
 * their code, piscina, pino and tesseract.js start workers from files beside theirs, sharp loads its native binding, tesseract.js its model, and OpenTelemetry's instrumentations patch
 * modules as node loads them.
 */
const STAY_EXTERNAL = /^(@electric-sql\/pglite|pglite-prisma-adapter|@prisma\/schema-engine-wasm|@prisma\/instrumentation|@opentelemetry\/[^/]+|piscina|pino|thread-stream|sharp|@img\/[^/]+|tesseract\.js|tesseract\.js-core|@tesseract\.js-data\/[^/]+)(\/|$)/;
/** What a CommonJS package bundled into an ES module still expects to find in its scope. */
const COMMONJS_SCOPE = [
  'import { createRequire as __fitCreateRequire } from "node:module";',
  'import { fileURLToPath as __fitFileURLToPath } from "node:url";',
  'import { dirname as __fitDirname } from "node:path";',
  "const require = __fitCreateRequire(import.meta.url);",
  "const __filename = __fitFileURLToPath(import.meta.url);",
  "const __dirname = __fitDirname(__filename);",
].join(" ");
const NEW_URL_OR_URL = /new URL\(\s*(["'])([^"'$`]+)\1\s*,\s*import\.meta\.url\s*\)|import\.meta\.url/g;

/** A path from the output folder, as a relative URL an ES module can import. */
const fromOutdir = (target) => {
  const relative = path.relative(outdir, target).split(path.sep).join("/");
  return relative.startsWith(".") ? relative : `./${relative}`;
};

/**
 * Prisma's query compiler ships as a module holding its WebAssembly in base64, which V8 would keep twice for the
 * life of the process (the module's source and the string): ~4.4 MB of every service's heap. The bytes go into a
 * .wasm file beside the bundle instead, read once when the client first needs them. The generated client decodes
 * `wasm` with `Buffer.from(wasm, "base64")`, which reads an object's `valueOf()`: the file's bytes, copied as they
 * are (docs/decisions/0049-minified-bundles-and-a-tighter-heap.md).
 */
const prismaWasmFile = {
  name: "prisma-wasm-file",
  setup(build) {
    build.onLoad({ filter: /[\\/]query_compiler_[^\\/]+\.wasm-base64\.mjs$/ }, async (args) => {
      const base64 = /const wasm = "([^"]+)"/.exec(await readFile(args.path, "utf8"))?.[1];
      if (!base64) return { errors: [{ text: `${args.path} no longer holds \`const wasm = "<base64>"\`: see prismaWasmFile` }] };
      const file = `${path.basename(args.path, ".wasm-base64.mjs")}.wasm`;
      await mkdir(outdir, { recursive: true });
      await writeFile(path.join(outdir, file), Buffer.from(base64, "base64"));
      const contents = `import { readFileSync } from "node:fs";
export const wasm = { valueOf: () => readFileSync(new URL(${JSON.stringify(`./${file}`)}, import.meta.url)) };`;
      return { contents, loader: "js" };
    });
  },
};

/** Bundles `entries` into outdir; returns the worker entries (.ts files named by `new URL`) it found. */
async function bundle(entries) {
  const workers = new Set();
  const sourceUrls = {
    name: "source-urls",
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, async (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const source = await readFile(args.path, "utf8");
        if (!source.includes("import.meta.url")) return { contents: source, loader: "ts" };
        const contents = source.replace(NEW_URL_OR_URL, (match, quote, relative) => {
          if (!relative) return `new URL(${JSON.stringify(fromOutdir(args.path))}, import.meta.url).href`;
          const target = path.resolve(path.dirname(args.path), relative);
          let pointed = fromOutdir(target);
          if (target.endsWith(".ts")) {
            workers.add(target);
            pointed = `./${path.basename(target, ".ts")}.js`;
          } else if (relative.endsWith("/")) pointed += "/";
          return `new URL(${JSON.stringify(pointed)}, import.meta.url)`;
        });
        return { contents, loader: "ts" };
      });
    },
  };
  const externals = {
    name: "third-party-external",
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.pluginData === "resolving" || args.path.startsWith("@fit/")) return undefined;
        if (args.path.startsWith("node:") || builtins.has(args.path.split("/")[0])) return { path: args.path, external: true };
        if (!STAY_EXTERNAL.test(args.path)) return undefined;
        const found = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: "resolving" });
        if (found.errors.length) return { errors: found.errors };
        return { path: fromOutdir(found.path), external: true };
      });
    },
  };
  await esbuild.build({
    entryPoints: entries,
    outdir,
    // Flat: every entry and chunk in outdir itself, which the relative paths above assume.
    entryNames: "[name]",
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    // Node's own resolution: no "module" condition, "main" only, so a package is loaded as node would load it.
    conditions: [],
    mainFields: ["main"],
    sourcemap: "linked",
    logLevel: "warning",
    plugins: [sourceUrls, externals, prismaWasmFile],
    // Not `minify` with `keepNames`: its `__name` helper redefined `name` on every closure each time one was made,
    // ~350 ns apiece, on every hot path of every service (docs/decisions/0051-bundles-keep-their-identifiers.md).
    minifyWhitespace: true,
    minifySyntax: true,
    banner: { js: COMMONJS_SCOPE },
  });
  return [...workers];
}

await rm(outdir, { recursive: true, force: true });
let pending = process.argv.slice(2).filter((arg) => !arg.startsWith("--")).map((entry) => path.resolve(entry));
const built = new Set();
while (pending.length) {
  for (const entry of pending) built.add(entry);
  pending = (await bundle(pending)).filter((worker) => !built.has(worker));
}
console.log(`built ${[...built].map((entry) => path.relative(process.cwd(), entry)).join(", ")} into ${pathToFileURL(outdir).pathname}`);
