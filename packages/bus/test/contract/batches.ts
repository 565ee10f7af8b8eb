import type { EventEnvelope } from "@fit/contracts";
import { expect, it } from "vitest";
import type { Bus, SubscribeOptions } from "../../src/index.ts";
import type { ContractContext } from "../bus-contract.ts";
import { envelopeFor, sleep, waitFor } from "../support.ts";
import { eventDef, fast } from "./events.ts";

/**
 * A subscription with a batch handler whose first event is held until `release`: the events published meanwhile
 * wait, and on NATS come out together. `handled` lists every event as it was handled, `batches` each batch's size.
 * `eachMs` slows every later event the one-event handler takes.
 */
export const heldSubscription = async (
  bus: Bus,
  def: ReturnType<typeof eventDef>,
  durable: string,
  { batchFails = false, eachMs = 0, options = fast }: { batchFails?: boolean; eachMs?: number; options?: SubscribeOptions } = {},
) => {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const handled: number[] = [];
  const batches: number[] = [];
  await bus.subscribe(
    def,
    durable,
    async (e) => {
      if (handled.length === 0) await held;
      else await sleep(eachMs);
      handled.push(e.data.grams);
    },
    {
      ...options,
      batch: async (events: EventEnvelope<{ grams: number }>[]) => {
        batches.push(events.length);
        if (batchFails) throw new Error("the batch's statement failed");
        handled.push(...events.map((e) => e.data.grams));
      },
    },
  );
  return { handled, batches, release };
};

/** A batch handler is an optimisation: every event is still handled once, in order, whichever handler took it. */
export const batchContract = (ctx: ContractContext): void => {
  it("hands every event once and in order, together or alone", async () => {
    const def = eventDef(ctx);
    const bus = await ctx.harness.open([def]);
    const subscription = await heldSubscription(bus, def, ctx.names.durable("d"));
    for (let g = 0; g < 6; g++) await bus.publish(def.subject, envelopeFor(def, { grams: g }));
    subscription.release();
    await waitFor(() => subscription.handled.length >= 6);
    expect(subscription.handled).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it("hands each event of a failed batch to the one-event handler, in order", async () => {
    const def = eventDef(ctx);
    const bus = await ctx.harness.open([def]);
    const subscription = await heldSubscription(bus, def, ctx.names.durable("d"), { batchFails: true });
    for (let g = 0; g < 6; g++) await bus.publish(def.subject, envelopeFor(def, { grams: g }));
    subscription.release();
    await waitFor(() => subscription.handled.length >= 6);
    expect(subscription.handled).toEqual([0, 1, 2, 3, 4, 5]);
    // A bus that batched said so; the events were not retried, they were handled.
    expect(ctx.log.filter((e) => e.msg === "batch handler failed; each event is handled alone")).toHaveLength(subscription.batches.length);
    expect(ctx.log.filter((e) => e.msg === "event handler failed; will be redelivered")).toEqual([]);
  });
};
