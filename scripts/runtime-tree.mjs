// Copies into <out> what the services' bundles load from node_modules at run time, and nothing else: the image's
// production stage (infra/Dockerfile). A bundle holds its third-party code but for the packages scripts/build.mjs
// keeps external, which it imports by their path under node_modules/.pnpm (docs/decisions/0026-compiled-runtime.md);
// those packages and everything they depend on are copied at the same paths, pnpm's symlinks included:
//   node scripts/runtime-tree.mjs <out> services/*/dist
// A package's peers are not followed: the host provides them, and here the host is the bundles, which import
// them directly (@opentelemetry/api, PGlite). Following them would bring back what a peer names but never loads
// at run time (pglite-prisma-adapter's @prisma/client, with every database's query compiler: 71 MB).
import { cp, lstat, readdir, readFile, realpath } from "node:fs/promises";
import path from "node:path";

const [out, ...dists] = process.argv.slice(2);
if (!out || !dists.length) throw new Error("usage: node scripts/runtime-tree.mjs <out> <dist folder>...");
const store = path.resolve("node_modules/.pnpm");
/** An import, dynamic import, require or `new URL` of a file in pnpm's store; group 1 is the store entry's name. */
const STORE_IMPORT = /(?:from|import|require\(|import\(|new URL\()\s*"(?:\.\.\/)+node_modules\/\.pnpm\/([^/"]+)\//g;

/** A package a bundle resolves by name at run time (createRequire's `resolve`): the OCR model, a data-only package. */
const RESOLVED_BY_NAME = /\.resolve\("((?:@[^/"]+\/)?[^/".][^/"]*)[/"]/g;

/** The workspace packages' node_modules symlinks, as [link, the store entry it points into]. */
const workspaceLinks = [];
for (const workspace of ["packages", "services"])
  for (const name of await readdir(workspace)) {
    const modules = path.join(workspace, name, "node_modules");
    const names = await readdir(modules).catch(() => []);
    const scoped = await Promise.all(names.map(async (n) => (n.startsWith("@") ? (await readdir(path.join(modules, n))).map((m) => `${n}/${m}`) : [n])));
    for (const link of scoped.flat()) {
      const at = path.join(modules, link);
      if ((await lstat(at)).isSymbolicLink()) workspaceLinks.push({ at, name: link, entry: path.relative(store, await realpath(at)).split(path.sep)[0] });
    }
  }

const entries = new Set();
for (const dist of dists)
  for (const file of await readdir(dist)) {
    if (!file.endsWith(".js")) continue;
    const code = await readFile(path.join(dist, file), "utf8");
    for (const [, entry] of code.matchAll(STORE_IMPORT)) entries.add(entry);
    // Found from a workspace package's folder, through its node_modules symlink (copied below).
    for (const [, name] of code.matchAll(RESOLVED_BY_NAME)) for (const link of workspaceLinks) if (link.name === name) entries.add(link.entry);
  }

/** The store entries a package folder's dependencies resolve to, through the symlinks beside it. */
const dependenciesOf = async (packageDir) => {
  const manifest = JSON.parse(await readFile(path.join(packageDir, "package.json"), "utf8"));
  const names = Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies });
  const siblings = path.join(store, path.relative(store, packageDir).split(path.sep)[0], "node_modules");
  const found = await Promise.all(names.map((name) => realpath(path.join(siblings, name)).catch(() => undefined)));
  return found.filter(Boolean);
};

/** The package folders a store entry holds itself (its dependencies beside them are symlinks). */
const packagesIn = async (entry) => {
  const modules = path.join(store, entry, "node_modules");
  const dirs = [];
  for (const name of await readdir(modules)) {
    const candidates = name.startsWith("@") ? (await readdir(path.join(modules, name))).map((n) => path.join(modules, name, n)) : [path.join(modules, name)];
    for (const dir of candidates) if (!(await lstat(dir)).isSymbolicLink()) dirs.push(dir);
  }
  return dirs;
};

const pending = [...entries];
while (pending.length) {
  const entry = pending.pop();
  for (const dir of await packagesIn(entry))
    for (const dependency of await dependenciesOf(dir)) {
      const next = path.relative(store, dependency).split(path.sep)[0];
      if (!entries.has(next)) {
        entries.add(next);
        pending.push(next);
      }
    }
}
/**
 * Type declarations, source maps and documentation: node loads none of them (28 MB of the packages). Nor the
 * variants of a package that the services never ask for: tesseract.js-core's builds for the browser (`.wasm.js`,
 * the WebAssembly inlined), 25 MB (node's, with and without the legacy engine, stay: tesseract.js 7 loads the one with
 * it whatever the engine asked); the English models but `4.0.0_best_int` (packages/photos/src/ocr-pool.ts), 11 MB;
 * libheif-js's builds but the one heic-decode loads (`libheif-wasm/libheif-bundle.js`), 6.5 MB
 * (docs/decisions/0079-photographed-logs.md).
 */
const UNLOADED =
  /\.(d\.[cm]?ts|map|md)$|\/tesseract\.js-core\/[^/]+\.wasm\.js$|\/@tesseract\.js-data\/eng\/4\.0\.0(\/|$)|\/libheif-js\/(libheif(\/|$)|libheif-wasm\/(libheif\.(js|wasm)|libheif-bundle\.mjs)$)/;
for (const entry of entries) {
  const filter = (source) => !UNLOADED.test(source);
  await cp(path.join(store, entry), path.join(out, "node_modules/.pnpm", entry), { recursive: true, verbatimSymlinks: true, filter });
}

// A workspace package resolving a store package from its own folder at run time (packages/db's schema engine, the
// OCR model of packages/photos; createRequire) finds it through its node_modules symlink: those pointing into what
// was copied come along.
for (const { at, entry } of workspaceLinks) if (entries.has(entry)) await cp(at, path.join(out, at), { verbatimSymlinks: true });
console.log(`${entries.size} packages from node_modules/.pnpm into ${out}`);
