import { expect, it } from "vitest";
import type { ContractContext } from "../bus-contract.ts";
import { envelopeFor, sleep, waitFor } from "../support.ts";
import { eventDef, fast } from "./events.ts";

/** What happens when a handler throws, hangs, or the event cannot be read. */
export const eventFailureContract = (ctx: ContractContext): void => {
  it("redelivers an event whose handler threw, and stops once it is acknowledged", async () => {
    const def = eventDef(ctx);
    const bus = await ctx.harness.open([def]);
    let calls = 0;
    await bus.subscribe(def, ctx.names.durable("d"), async () => {
      if (++calls === 1) throw new Error("database briefly down");
    }, fast);
    await bus.publish(def.subject, envelopeFor(def, { grams: 1 }));
    await waitFor(() => calls === 2);
    await sleep(300);
    expect(calls).toBe(2);
  });

  it("gives an always-failing event up after maxDeliver deliveries", async () => {
    const def = eventDef(ctx);
    const bus = await ctx.harness.open([def]);
    let calls = 0;
    await bus.subscribe(def, ctx.names.durable("d"), async () => {
      calls++;
      throw new Error("never works");
    }, { ...fast, maxDeliver: 3, retryDelayMs: 20 });
    await bus.publish(def.subject, envelopeFor(def, { grams: 1 }));
    await waitFor(() => calls === 3);
    await sleep(400);
    expect(calls).toBe(3);
    expect(ctx.log.some((e) => e.level === "error" && /giv(ing|en) up/.test(e.msg ?? ""))).toBe(true);
  });

  it("drops an event whose data breaks the schema without retrying it, and goes on", async () => {
    const def = eventDef(ctx);
    const bus = await ctx.harness.open([def]);
    const got: number[] = [];
    await bus.subscribe(def, ctx.names.durable("d"), async (e) => void got.push(e.data.grams), { ...fast, retryDelayMs: 10 });
    await bus.publish(def.subject, envelopeFor(def, { grams: "heavy" }));
    await bus.publish(def.subject, envelopeFor(def, { grams: 5 }));
    await waitFor(() => got.length === 1);
    await sleep(200);
    expect(got).toEqual([5]);
    expect(ctx.log.filter((e) => e.level === "error" && /poison/.test(e.msg ?? ""))).toHaveLength(1);
  });

  it("hands an event out again when it is not acknowledged within ackWaitMs", async () => {
    const def = eventDef(ctx);
    const bus = await ctx.harness.open([def]);
    let calls = 0;
    await bus.subscribe(def, ctx.names.durable("d"), async () => {
      if (++calls === 1) await sleep(700);
    }, { ...fast, ackWaitMs: 300 });
    await bus.publish(def.subject, envelopeFor(def, { grams: 1 }));
    // NATS may send it more than once while the first delivery hangs; at least once more is the rule.
    await waitFor(() => calls >= 2, 3_000);
  });

  // The ack is sent without waiting for the server's confirmation (docs/performance.md): it must still arrive.
  it("does not hand an acknowledged event out again once ackWaitMs has passed", async () => {
    const def = eventDef(ctx);
    const bus = await ctx.harness.open([def]);
    let calls = 0;
    await bus.subscribe(def, ctx.names.durable("d"), async () => void calls++, { ...fast, ackWaitMs: 300 });
    await bus.publish(def.subject, envelopeFor(def, { grams: 1 }));
    await waitFor(() => calls === 1);
    await sleep(1_000);
    expect(calls).toBe(1);
  });

  it("keeps an event with the handler that says it is still working past ackWaitMs", async () => {
    const def = eventDef(ctx);
    const bus = await ctx.harness.open([def]);
    let calls = 0;
    let done = false;
    await bus.subscribe(def, ctx.names.durable("d"), async (_event, delivery) => {
      calls++;
      for (let i = 0; i < 6; i++) {
        await sleep(150);
        delivery.working();
      }
      done = true;
    }, { ...fast, ackWaitMs: 300 });
    await bus.publish(def.subject, envelopeFor(def, { grams: 1 }));
    await waitFor(() => done, 3_000);
    await sleep(400);
    expect(calls).toBe(1);
  });
};
