// Runs `prisma generate` for the service in the current folder without the internet.
// The CLI wants a schema-engine binary it would download; generate never uses it, so a stub that explains
// itself stands in. Migrations run through @fit/db's WASM engine instead (see packages/db).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

// `pnpm run generate` puts node_modules/.bin on PATH, `node ../../scripts/prisma-generate.mjs` does not:
// look for the package's own prisma CLI first so both ways run the version the package pins.
function findPrisma() {
  for (let dir = process.cwd(); ; dir = path.dirname(dir)) {
    const bin = path.join(dir, "node_modules", ".bin", process.platform === "win32" ? "prisma.cmd" : "prisma");
    if (existsSync(bin)) return bin;
    if (path.dirname(dir) === dir) return "prisma";
  }
}

const stub = fileURLToPath(new URL("./schema-engine-stub.sh", import.meta.url));
const prisma = findPrisma();
const result = spawnSync(prisma, ["generate", "--schema", "prisma/schema.prisma"], {
  stdio: "inherit",
  shell: process.platform === "win32",
  env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: stub, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
});
if (result.error) console.error(`prisma-generate: could not run ${prisma}: ${result.error.message}`);
process.exit(result.status ?? 1);
