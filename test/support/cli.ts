import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const cliFolder = fileURLToPath(new URL("../../apps/cli/", import.meta.url));

/** The compiled client, as `pnpm fit` and the package's `bin` run it. */
export const fitBinary = `${cliFolder}dist/fit.js`;

/**
 * Builds it from the current source (esbuild, well under a second), so a test never runs a stale or missing
 * build: CI runs `pnpm test` on a clean clone.
 */
export const buildCli = async (): Promise<void> => {
  await promisify(execFile)(process.execPath, ["build.mjs"], { cwd: cliFolder });
};
