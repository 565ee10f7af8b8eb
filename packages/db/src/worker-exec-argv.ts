/** Node's flags that load code, each followed by its value unless written `--flag=value`. */
const LOADER_FLAGS = new Set(["--import", "--require", "-r", "--loader", "--experimental-loader", "--conditions", "-C"]);

/**
 * The host's node flags a worker thread can take: only those that load code (tsx, when the sources run as
 * TypeScript). A thread refuses V8's process-wide flags, which every server runs with (`--liftoff-only`,
 * `--max-semi-space-size`, `--heap-growing-percent`: docs/decisions/0040-wasm-liftoff-only.md), and the pool's first thread then fails to start.
 */
export const workerExecArgv = (hostArgv: readonly string[], { needsTsx }: { needsTsx: boolean }): string[] => {
  const kept: string[] = [];
  for (let i = 0; i < hostArgv.length; i++) {
    const flag = hostArgv[i]!;
    if (LOADER_FLAGS.has(flag) && i + 1 < hostArgv.length) kept.push(flag, hostArgv[++i]!);
    else if (LOADER_FLAGS.has(flag.split("=")[0]!) && flag.includes("=")) kept.push(flag);
  }
  return needsTsx && !kept.some((value) => value.includes("tsx")) ? [...kept, "--import", "tsx"] : kept;
};
