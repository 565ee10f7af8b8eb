import { AppError, defineEvent, type EventEnvelope } from "@fit/contracts";
import { expect, it } from "vitest";
import { z } from "zod";
import type { ContractContext } from "../bus-contract.ts";
import { envelopeFor, rejection, sleep, waitFor } from "../support.ts";

export const eventDef = (ctx: ContractContext, name = "logged") =>
  defineEvent({ subject: ctx.names.subject(name), stream: ctx.names.stream, data: z.object({ grams: z.number() }) });

/** Short waits so redelivery tests take milliseconds, not the production seconds. */
export const fast = { ackWaitMs: 2_000, retryDelayMs: 30, maxDeliver: 5 };

/** Storing and delivering: who gets which event, how often. */
export const eventContract = (ctx: ContractContext): void => {
  it("delivers a published event to a subscriber, parsed", async () => {
    const def = eventDef(ctx);
    const bus = await ctx.harness.open([def]);
    const got: EventEnvelope[] = [];
    await bus.subscribe(def, ctx.names.durable("d"), async (e) => void got.push(e), fast);
    const sent = envelopeFor(def, { grams: 120 });
    await bus.publish(def.subject, sent);
    await waitFor(() => got.length === 1);
    expect(got[0]).toEqual(sent);
  });

  it("gives a new durable the events stored before it existed", async () => {
    const def = eventDef(ctx);
    const bus = await ctx.harness.open([def]);
    await bus.publish(def.subject, envelopeFor(def, { grams: 1 }));
    const got: number[] = [];
    await bus.subscribe(def, ctx.names.durable("late"), async (e) => void got.push(e.data.grams), fast);
    await waitFor(() => got.length === 1);
  });

  it("stores an event published twice with the same id once", async () => {
    const def = eventDef(ctx);
    const bus = await ctx.harness.open([def]);
    const ids: string[] = [];
    await bus.subscribe(def, ctx.names.durable("d"), async (e) => void ids.push(e.id), fast);
    const twice = envelopeFor(def, { grams: 1 });
    await bus.publish(def.subject, twice);
    await bus.publish(def.subject, twice);
    const marker = envelopeFor(def, { grams: 2 });
    await bus.publish(def.subject, marker);
    await waitFor(() => ids.includes(marker.id));
    await sleep(100);
    expect(ids).toEqual([twice.id, marker.id]);
  });

  it("shares one durable between replicas, each event handled once", async () => {
    const def = eventDef(ctx);
    const handled: string[][] = [[], []];
    for (const i of [0, 1]) {
      const replica = await ctx.harness.open([def]);
      await replica.subscribe(def, ctx.names.durable("shared"), async (e) => {
        handled[i]!.push(e.id);
        await sleep(20);
      }, { ...fast, prefetch: 1 });
    }
    const publisher = await ctx.harness.open([def]);
    const sent = Array.from({ length: 10 }, (_, g) => envelopeFor(def, { grams: g }));
    for (const e of sent) await publisher.publish(def.subject, e);
    await waitFor(() => handled[0]!.length + handled[1]!.length >= 10);
    await sleep(200);
    expect([...handled[0]!, ...handled[1]!].sort()).toEqual(sent.map((e) => e.id).sort());
    expect(Math.min(handled[0]!.length, handled[1]!.length)).toBeGreaterThan(0);
  });

  it("gives each durable its own copy of every event", async () => {
    const def = eventDef(ctx);
    const bus = await ctx.harness.open([def]);
    const got = { a: 0, b: 0 };
    await bus.subscribe(def, ctx.names.durable("a"), async () => void got.a++, fast);
    await bus.subscribe(def, ctx.names.durable("b"), async () => void got.b++, fast);
    for (let g = 0; g < 3; g++) await bus.publish(def.subject, envelopeFor(def, { grams: g }));
    await waitFor(() => got.a === 3 && got.b === 3);
  });

  it("resumes a durable where it stopped: acknowledged events are not seen again", async () => {
    const def = eventDef(ctx);
    const bus = await ctx.harness.open([def]);
    const got: number[] = [];
    const first = await bus.subscribe(def, ctx.names.durable("d"), async (e) => void got.push(e.data.grams), fast);
    await bus.publish(def.subject, envelopeFor(def, { grams: 1 }));
    await waitFor(() => got.length === 1);
    await first.stop();
    await bus.publish(def.subject, envelopeFor(def, { grams: 2 }));
    await sleep(100);
    expect(got).toEqual([1]);
    await bus.subscribe(def, ctx.names.durable("d"), async (e) => void got.push(e.data.grams), fast);
    await waitFor(() => got.length === 2);
    expect(got).toEqual([1, 2]);
  });

  it("refuses to publish on a subject no stream stores, as unavailable", async () => {
    const bus = await ctx.harness.open([eventDef(ctx)]);
    const stray = eventDef(ctx, "stray");
    const err = await rejection(bus.publish(stray.subject, envelopeFor(stray, { grams: 1 })));
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe("unavailable");
  });

  it("answers ping while open and refuses it once closed", async () => {
    const bus = await ctx.harness.open([]);
    await bus.ping();
    await bus.close();
    expect(((await rejection(bus.ping())) as AppError).code).toBe("unavailable");
  });
};
