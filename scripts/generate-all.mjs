// Generates every Prisma client of the workspace (each service's, and @fit/db's test fixture). Runs after install,
// before the build (`pnpm build`: the services, the launcher, the web app and the CLI), so `pnpm install && pnpm
// start` and the container image have both; plain node, so it works however pnpm was started (global, npx, corepack).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const generator = fileURLToPath(new URL("./prisma-generate.mjs", import.meta.url));
const folders = [
  ...readdirSync(path.join(root, "services")).map((name) => path.join(root, "services", name)),
  path.join(root, "packages", "db", "test", "fixture"),
].filter((folder) => existsSync(path.join(folder, "prisma", "schema.prisma")));

for (const folder of folders) {
  const { status } = spawnSync(process.execPath, [generator], { cwd: folder, stdio: "inherit" });
  if (status !== 0) process.exit(status ?? 1);
}
