import { readFileSync } from "node:fs";
import net from "node:net";

// A port the kernel hands out for `listen(0)` lies in its ephemeral range, the same range every outgoing connection
// takes its local port from. Between the probe closing such a port and the test's server binding it, any of the
// suite's thousands of connections to PostgreSQL or NATS may take it (EADDRINUSE). Ports below that range are only
// ever bound on purpose, so a port picked there stays free unless another picker draws the same one.
const LOWEST = 10_000;
const DEFAULT_EPHEMERAL_START = 32_768;

const ephemeralStart = () => {
  try {
    const start = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
    return Number.isInteger(start) && start > LOWEST + 1_000 ? start : DEFAULT_EPHEMERAL_START;
  } catch {
    return DEFAULT_EPHEMERAL_START;
  }
};

const FIRST_EPHEMERAL = ephemeralStart();

const isFree = (port: number) =>
  new Promise<boolean>((resolve, reject) => {
    const server = net.createServer();
    server.once("error", (error: NodeJS.ErrnoException) => (error.code === "EADDRINUSE" ? resolve(false) : reject(error)));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });

/** A loopback port nobody listens on right now and no outgoing connection will take, for a server a test or benchmark starts itself. */
export const freePort = async () => {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = LOWEST + Math.floor(Math.random() * (FIRST_EPHEMERAL - LOWEST));
    if (await isFree(port)) return port;
  }
  throw new Error(`no free port between ${LOWEST} and ${FIRST_EPHEMERAL} after 100 tries`);
};
