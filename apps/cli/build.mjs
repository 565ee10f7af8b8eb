// Bundles the CLI into one file that runs on plain Node: @fit/contracts is TypeScript source, so it cannot be left
// to run-time resolution. CommonJS dependencies (commander, cli-table3) call require(), which an ES module lacks.
import { join } from "node:path";
import { build } from "esbuild";

await build({
  entryPoints: [join(import.meta.dirname, "src/fit.ts")],
  outfile: join(import.meta.dirname, "dist/fit.js"),
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  banner: { js: "#!/usr/bin/env node\nimport { createRequire as __fitRequire } from \"node:module\";\nconst require = __fitRequire(import.meta.url);" },
  logLevel: "warning",
});
