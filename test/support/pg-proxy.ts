// A TCP proxy between a service and PostgreSQL. A crash "between the commit and the ack" cannot be timed from
// outside: the proxy makes it exact, by holding the one transaction at the point asked for while the test kills
// the process.
import net from "node:net";

/**
 * "before-commit": the COMMIT is never forwarded, so PostgreSQL rolls the transaction back when the connection dies.
 * "after-commit": the COMMIT is forwarded and PostgreSQL's answer withheld, so the transaction is committed while
 * the service never learns it (and never acknowledges the event it was applying).
 */
type TrapMode = "before-commit" | "after-commit";

// The nutrition service recomputes a daily total under a transaction-scoped advisory lock: the one statement
// that tells its transactions apart on the wire.
const RECOMPUTE_MARKER = "pg_advisory_xact_lock(hashtextextended";

/**
 * Transparent until a trap is armed. Matching is on the raw bytes of the wire protocol: the SQL text of a Parse
 * or Query message, and the CommandComplete tag "COMMIT" in PostgreSQL's answer.
 */
export const startPgProxy = async (databaseUrl: string) => {
  const target = new URL(databaseUrl);
  const sockets = new Set<net.Socket>();
  let armed: { mode: TrapMode; sprung: () => void } | null = null;

  const server = net.createServer((client) => {
    const upstream = net.connect({ host: target.hostname, port: Number(target.port || 5432) });
    sockets.add(client);
    sockets.add(upstream);
    let inRecompute = false;
    let frozen = false;
    let awaitingCommit: (() => void) | null = null;
    client.on("data", (chunk) => {
      if (frozen || awaitingCommit) return;
      const text = chunk.toString("latin1");
      if (text.includes(RECOMPUTE_MARKER)) inRecompute = true;
      if (/\b(COMMIT|ROLLBACK)\b/.test(text)) {
        const trap = inRecompute ? armed : null;
        inRecompute = false;
        if (trap) {
          armed = null;
          if (trap.mode === "before-commit") {
            frozen = true;
            trap.sprung();
            return;
          }
          awaitingCommit = trap.sprung;
        }
      }
      upstream.write(chunk);
    });
    upstream.on("data", (chunk) => {
      if (frozen) return;
      if (awaitingCommit) {
        if (!chunk.toString("latin1").includes("COMMIT")) return;
        frozen = true;
        awaitingCommit();
        return;
      }
      client.write(chunk);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    for (const socket of [client, upstream]) {
      socket.on("close", end);
      socket.on("error", end);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;

  return {
    /** `databaseUrl` with its host and port replaced by the proxy's. */
    url: (databaseUrl: string) => {
      const url = new URL(databaseUrl);
      url.hostname = "127.0.0.1";
      url.port = String(port);
      return url.toString();
    },
    /**
     * Arms a trap on the next transaction that recomputes a daily total; that connection stays frozen once it
     * springs. Resolves when it has sprung (for "after-commit": once PostgreSQL confirmed the commit).
     */
    trapNextRecompute: (mode: TrapMode) =>
      new Promise<void>((resolve) => {
        armed = { mode, sprung: resolve };
      }),
    close: async () => {
      armed = null;
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
