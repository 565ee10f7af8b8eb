import { defineEvent } from "@fit/contracts";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createBus, createInProcessBus } from "../../src/index.ts";
import { captureLogger, envelopeFor } from "../support.ts";

const logged = defineEvent({ subject: "unit.thing.logged", stream: "UNIT", data: z.object({}) });

describe("createBus", () => {
  it("makes an in-process bus when no NATS URL is set", async () => {
    const bus = await createBus({ name: "svc", logger: captureLogger().logger, streams: [logged] });
    await bus.ping();
    await expect(bus.publish(logged.subject, envelopeFor(logged, {}))).resolves.toBeUndefined();
    await bus.close();
  });

  it("joins a bus it is given and adds the service's streams to it", async () => {
    const shared = createInProcessBus({ logger: captureLogger().logger });
    const bus = await createBus({ name: "svc", logger: captureLogger().logger, streams: [logged], bus: shared });
    expect(bus).toBe(shared);
    await expect(shared.publish(logged.subject, envelopeFor(logged, {}))).resolves.toBeUndefined();
    await shared.close();
  });

  it("refuses an event subject with a wildcard, which could swallow request subjects", async () => {
    const wild = defineEvent({ subject: "unit.>", stream: "UNIT", data: z.object({}) });
    await expect(createBus({ name: "svc", logger: captureLogger().logger, streams: [wild] })).rejects.toThrow(/wildcard/);
  });
});
