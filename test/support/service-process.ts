// A service started the way production starts it (`node --import tsx <entry>`), in a process of its own, so a
// test can end it with SIGKILL and see what a crash leaves behind.
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { freePort } from "@fit/testing";
import { runChild } from "./child-process.ts";
import { waitFor } from "./wait.ts";

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

/**
 * Runs `entry` from the repository root and waits for its /readyz. The environment is exactly `env` (plus PATH
 * and HOME): nothing leaks in from the developer's shell.
 */
export const startServiceProcess = async (entry: string, env: Record<string, string>) => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const base = { PATH: process.env["PATH"] ?? "/usr/bin:/bin", HOME: process.env["HOME"] ?? tmpdir() };
  const proc = runChild(process.execPath, ["--import", "tsx", entry], { cwd: repoRoot, env: { ...base, ...env, HOST: "127.0.0.1", PORT: String(port) } });
  try {
    await waitFor(
      `${entry} to be ready`,
      async () => {
        if (!proc.running()) throw new Error(`${entry} exited:\n${proc.log()}`);
        const response = await fetch(`${url}/readyz`).catch(() => undefined);
        return response?.status === 200 ? true : undefined;
      },
      30_000,
    );
  } catch (err) {
    await proc.kill("SIGKILL");
    throw new Error(`${err instanceof Error ? err.message : String(err)}\n--- log ---\n${proc.log()}`, { cause: err });
  }
  return { url, kill: (signal: NodeJS.Signals = "SIGKILL") => proc.kill(signal), log: proc.log };
};

export type ServiceProcess = Awaited<ReturnType<typeof startServiceProcess>>;
