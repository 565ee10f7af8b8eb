import { readFileSync } from "node:fs";
import net from "node:net";
import { describe, expect, it } from "vitest";
import { freePort } from "../../src/ports.ts";

const ephemeralStart = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);

describe("freePort", () => {
  it("picks ports below the kernel's ephemeral range, which outgoing connections never take, and that a server can bind", async () => {
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(10_000);
      expect(port).toBeLessThan(ephemeralStart);
    }
    const server = net.createServer();
    await new Promise<void>((resolve, reject) => server.once("error", reject).listen(ports[0], "127.0.0.1", resolve));
    expect((server.address() as net.AddressInfo).port).toBe(ports[0]);
    await new Promise((resolve) => server.close(resolve));
  });
});
