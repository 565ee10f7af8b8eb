import { defineEndpoint } from "@fit/contracts";
import { metrics as globalMetrics } from "@opentelemetry/api";
import { metrics } from "@opentelemetry/sdk-node";
import { afterEach, beforeEach, expect, it } from "vitest";
import { z } from "zod";
import type { ContractContext } from "../bus-contract.ts";
import { envelopeFor, rejection, sleep, waitFor } from "../support.ts";
import { eventDef, fast } from "./events.ts";

/** A reader collected on demand, as a Prometheus scrape collects. */
class OnDemandReader extends metrics.MetricReader {
  protected override async onForceFlush() {}
  protected override async onShutdown() {}
}

/** What the bus records: both buses, the same series. */
export const metricsContract = (ctx: ContractContext): void => {
  let reader: OnDemandReader;
  beforeEach(() => {
    reader = new OnDemandReader();
    globalMetrics.setGlobalMeterProvider(new metrics.MeterProvider({ readers: [reader] }));
  });
  afterEach(() => globalMetrics.disable());

  /** Data points of `name` whose attributes include `where`. */
  const points = async (name: string, where: Record<string, string>) => {
    const { resourceMetrics } = await reader.collect();
    return resourceMetrics.scopeMetrics
      .flatMap((scope) => scope.metrics)
      .filter((m) => m.descriptor.name === name)
      .flatMap((m) => m.dataPoints as { attributes: Record<string, unknown>; value: unknown }[])
      .filter((p) => Object.entries(where).every(([k, v]) => p.attributes[k] === v));
  };
  const counted = async (name: string, where: Record<string, string>) => (await points(name, where)).map((p) => p.value);

  it("times requests by subject, a timeout under error.type timeout", async () => {
    const bus = await ctx.harness.open([]);
    const def = defineEndpoint({ subject: ctx.names.subject("timed"), service: "t", request: z.object({ slow: z.boolean() }), reply: z.object({}) });
    bus.serve(def, async ({ slow }) => {
      if (slow) await sleep(400);
      return {};
    });
    await bus.request(def, { slow: false });
    await rejection(bus.request(def, { slow: true }, { timeoutMs: 100 }));

    const [ok] = await points("fit.bus.request.duration", { "messaging.destination.name": def.subject });
    expect(ok?.attributes["error.type"]).toBeUndefined();
    expect(ok?.value).toMatchObject({ count: 1 });
    const [timedOut] = await points("fit.bus.request.duration", { "messaging.destination.name": def.subject, "error.type": "timeout" });
    expect(timedOut?.value).toMatchObject({ count: 1 });
  });

  it("counts redeliveries per durable, from 0 before any", async () => {
    const def = eventDef(ctx);
    const bus = await ctx.harness.open([def]);
    const durable = ctx.names.durable("d");
    let calls = 0;
    await bus.subscribe(def, durable, async () => {
      if (++calls === 1) throw new Error("database briefly down");
    }, fast);
    expect(await counted("fit.bus.event.redeliveries", { "messaging.consumer.group.name": durable })).toEqual([0]);
    await bus.publish(def.subject, envelopeFor(def, { grams: 1 }));
    await waitFor(() => calls === 2);
    expect(await counted("fit.bus.event.redeliveries", { "messaging.consumer.group.name": durable })).toEqual([1]);
  });

  it("reports the events a durable has not been handed yet", async () => {
    const def = eventDef(ctx);
    const bus = await ctx.harness.open([def]);
    const durable = ctx.names.durable("d");
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    await bus.subscribe(def, durable, async () => {
      calls++;
      await held;
    }, { ...fast, prefetch: 1 });
    for (let i = 0; i < 5; i++) await bus.publish(def.subject, envelopeFor(def, { grams: i }));
    await waitFor(() => calls === 1);
    const pending = async () => (await counted("fit.bus.consumer.pending", { "messaging.consumer.group.name": durable }))[0];
    // The one in hand, and on NATS the one pulled ahead, are no longer pending.
    await expect.poll(pending).toBeGreaterThanOrEqual(3);
    release();
    await waitFor(() => calls === 5);
    await expect.poll(pending).toBe(0);
  });
};
