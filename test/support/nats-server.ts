// A nats-server of the test's own: stopping, crashing and restarting the machine's shared server would break
// every other test running beside this one.
import { mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "@fit/testing";
import { runChild } from "./child-process.ts";
import { waitFor } from "./wait.ts";

const portAnswers = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });

/** `nats-server -js` on a free port with a store folder of its own, so streams and consumers survive its restarts. */
export const startPrivateNats = async () => {
  const port = await freePort();
  const storeDir = await mkdtemp(join(tmpdir(), "fit-faults-nats-"));
  let current: ReturnType<typeof runChild> | undefined;
  const start = async () => {
    if (current?.running()) return;
    const proc = runChild("nats-server", ["-js", "-a", "127.0.0.1", "-p", String(port), "-sd", storeDir], {});
    current = proc;
    await waitFor(
      `nats-server on port ${port}`,
      async () => {
        if (!proc.running()) throw new Error(`nats-server exited:\n${proc.log()}`);
        return /Server is ready/.test(proc.log()) && (await portAnswers(port)) ? true : undefined;
      },
      10_000,
      50,
    );
  };
  /** SIGTERM is a clean shutdown (store flushed); SIGKILL a crash. */
  const stop = async (signal: NodeJS.Signals = "SIGTERM") => {
    await current?.kill(signal);
  };
  await start();
  return {
    url: `nats://127.0.0.1:${port}`,
    /** Starts the server again on the same port and store folder. */
    start,
    stop,
    /** Stops the server and removes its store folder. */
    close: async () => {
      await stop("SIGKILL");
      await rm(storeDir, { recursive: true, force: true });
    },
  };
};
