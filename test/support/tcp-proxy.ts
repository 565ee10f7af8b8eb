// A TCP proxy in front of the machine's PostgreSQL or NATS, which tests must never stop: closing the proxy is
// how a test makes the server unreachable for one service alone, and holding it is how it keeps a request in
// flight for as long as it likes.
import net from "node:net";

export const startTcpProxy = async (target: { host: string; port: number }) => {
  const sockets = new Set<net.Socket>();
  let held = false;
  /** What clients sent while held, per connection, forwarded on release. */
  const waiting = new Map<net.Socket, Buffer[]>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("error", () => undefined); // the other side of the pair is destroyed in close
      socket.on("close", () => {
        sockets.delete(socket);
        waiting.delete(upstream);
        client.destroy();
        upstream.destroy();
      });
    }
    client.on("data", (chunk) => {
      if (held) waiting.set(upstream, [...(waiting.get(upstream) ?? []), chunk]);
      else upstream.write(chunk);
    });
    upstream.on("data", (chunk) => client.write(chunk));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;

  return {
    port,
    /** `url` with its host and port replaced by the proxy's. */
    url(url: string) {
      const proxied = new URL(url);
      proxied.hostname = "127.0.0.1";
      proxied.port = String(port);
      return proxied.toString();
    },
    /** Unreachable: open connections are cut and new ones refused until `open`. */
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    async open() {
      await new Promise<void>((resolve, reject) => server.once("error", reject).listen(port, "127.0.0.1", resolve));
    },
    /** Stops forwarding what clients send (their requests wait, connections stay up) until `release`. */
    hold() {
      held = true;
    },
    /** How many writes clients made while held. */
    heldWrites: () => [...waiting.values()].reduce((n, chunks) => n + chunks.length, 0),
    release() {
      held = false;
      for (const [upstream, chunks] of waiting) for (const chunk of chunks) upstream.write(chunk);
      waiting.clear();
    },
  };
};
