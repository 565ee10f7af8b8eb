import { readFileSync } from "node:fs";
import { allEndpoints, allEvents, busAccess, type BusUser } from "@fit/contracts";
import { natsAuthorization } from "@fit/bus";
import { describe, expect, it } from "vitest";

// The NATS server's users come from the services' bus access (packages/contracts/src/bus-access.ts); the file the
// compose cluster loads must be what that writes today (issue 36).
const services = Object.keys(busAccess) as BusUser[];

describe("NATS authorization", () => {
  it("infra/nats/authorization.conf is what `pnpm nats:authorization` writes from the bus access", () => {
    expect(readFileSync(new URL("../../nats/authorization.conf", import.meta.url), "utf8")).toBe(natsAuthorization());
  });

  it("every question has a service that answers it and one that asks it; every event a publisher", () => {
    for (const endpoint of allEndpoints) {
      expect(services, endpoint.subject).toContain(endpoint.service);
      expect(services.filter((s) => (busAccess[s].asks as readonly unknown[]).includes(endpoint)), endpoint.subject).not.toEqual([]);
    }
    for (const event of allEvents) expect(services.filter((s) => (busAccess[s].publishes as readonly unknown[]).includes(event)), event.subject).toHaveLength(1);
  });

  it("names no password in the file: each comes from the server's environment", () => {
    const file = natsAuthorization();
    expect(file.match(/password: .*/g)).toEqual(services.map((s) => `password: $NATS_PASSWORD_${s.replace("-", "_").toUpperCase()}`));
  });
});
