import { AppError, defineEvent, type EventEnvelope } from "@fit/contracts";
import { expect, it } from "vitest";
import { z } from "zod";
import { startOutboxRelay, type Bus } from "../../src/index.ts";
import type { ContractContext } from "../bus-contract.ts";
import { envelopeFor, FakeOutbox, sleep, waitFor } from "../support.ts";

const eventDef = (ctx: ContractContext) =>
  defineEvent({ subject: ctx.names.subject("relayed"), stream: ctx.names.stream, data: z.object({ n: z.number() }) });

export const relayContract = (ctx: ContractContext): void => {
  it("publishes pending outbox rows in order and marks them sent", async () => {
    const def = eventDef(ctx);
    const bus = await ctx.harness.open([def]);
    const got: number[] = [];
    await bus.subscribe(def, ctx.names.durable("d"), async (e) => void got.push(e.data.n));
    const outbox = new FakeOutbox();
    for (let n = 0; n < 5; n++) outbox.add(def.subject, envelopeFor(def, { n }));
    const relay = startOutboxRelay({ bus, source: outbox, logger: ctx.logger, intervalMs: 20 });
    try {
      await waitFor(() => got.length === 5);
      expect(got).toEqual([0, 1, 2, 3, 4]);
      expect(await outbox.pending()).toBe(0);
    } finally {
      await relay.stop();
    }
  });

  it("keeps rows whose publish failed and sends them later, each event once", async () => {
    const def = eventDef(ctx);
    const bus = await ctx.harness.open([def]);
    const ids: string[] = [];
    await bus.subscribe(def, ctx.names.durable("d"), async (e) => void ids.push(e.id));
    // Every second publish of the first six fails: a row fails beside rows that went out, and again when retried.
    let calls = 0;
    const flaky: Pick<Bus, "publish"> = {
      publish: async (subject: string, envelope: EventEnvelope) => {
        if (++calls <= 6 && calls % 2 === 0) throw new AppError("unavailable", "nats restarting");
        await bus.publish(subject, envelope);
      },
    };
    const outbox = new FakeOutbox();
    const rows = [0, 1, 2].map((n) => outbox.add(def.subject, envelopeFor(def, { n })));
    const relay = startOutboxRelay({ bus: flaky, source: outbox, logger: ctx.logger, intervalMs: 10, maxBackoffMs: 50 });
    try {
      await waitFor(() => ids.length >= 3);
      await sleep(150);
      // Each once; a failed row may follow the rows of its window (docs/decisions/0089-relay-publishes-in-windows.md).
      expect([...ids].sort()).toEqual(rows.map((r) => (r.payload as EventEnvelope).id).sort());
      expect(await outbox.pending()).toBe(0);
      expect(ctx.log.some((e) => e.level === "error" && /relay pass failed/.test(e.msg ?? ""))).toBe(true);
    } finally {
      await relay.stop();
    }
  });
};
