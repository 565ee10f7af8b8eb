// Bundles the CLI into one file that runs on plain Node: @fit/contracts is TypeScript source, so it cannot be left
// to run-time resolution. CommonJS dependencies (commander, cli-table3) call require(), which an ES module lacks.
// Whitespace and syntax are minified, identifiers kept (docs/decisions/0051-bundles-keep-their-identifiers.md).
// Beside it, the files it was built from: `pnpm fit` (run.mjs) rebuilds only when one of them is newer.
import { chmod, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { build } from "esbuild";

const dist = join(import.meta.dirname, "dist");
const { metafile } = await build({
  absWorkingDir: import.meta.dirname,
  entryPoints: ["src/fit.ts"],
  outfile: join(dist, "fit.js"),
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  minifyWhitespace: true,
  minifySyntax: true,
  metafile: true,
  banner: { js: "#!/usr/bin/env node\nimport { createRequire as __fitRequire } from \"node:module\";\nconst require = __fitRequire(import.meta.url);" },
  logLevel: "warning",
});
// Executable, so the single file can be copied onto a PATH and run as `fit`.
await chmod(join(dist, "fit.js"), 0o755);
const inputs = [import.meta.filename, ...Object.keys(metafile.inputs).map((input) => resolve(import.meta.dirname, input))];
await writeFile(join(dist, "fit.inputs.json"), `${JSON.stringify(inputs)}\n`);
