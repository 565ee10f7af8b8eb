import { cpus, totalmem } from "node:os";

/**
 * What the figures were measured on, written beside them: a ratio from another machine is another ratio. The
 * machine's cores, not this process's (it is pinned to the load CPU).
 */
export const machine = () => ({
  cores: cpus().length,
  cpu: cpus()[0]?.model ?? "unknown",
  memoryGb: Math.round(totalmem() / 2 ** 30),
  node: process.version,
  platform: `${process.platform} ${process.arch}`,
});
