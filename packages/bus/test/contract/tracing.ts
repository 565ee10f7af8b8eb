import { defineEndpoint, defineEvent } from "@fit/contracts";
import { propagation, type TextMapPropagator } from "@opentelemetry/api";
import { afterEach, expect, it } from "vitest";
import { z } from "zod";
import type { ContractContext } from "../bus-contract.ts";
import { envelopeFor, waitFor } from "../support.ts";

const TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

/**
 * A stand-in propagator: it writes a fixed traceparent and records what the receiving side extracts, which
 * shows the headers cross the hop without needing a tracing SDK in the tests.
 */
const recordingPropagator = (extracted: string[]): TextMapPropagator => ({
  inject: (_ctx, carrier, setter) => setter.set(carrier, "traceparent", TRACEPARENT),
  extract: (ctx, carrier, getter) => {
    const value = getter.get(carrier, "traceparent");
    if (typeof value === "string") extracted.push(value);
    return ctx;
  },
  fields: () => ["traceparent"],
});

export const tracingContract = (ctx: ContractContext): void => {
  afterEach(() => propagation.disable());

  it("carries the caller's trace context to the responder", async () => {
    const extracted: string[] = [];
    propagation.setGlobalPropagator(recordingPropagator(extracted));
    const bus = await ctx.harness.open([]);
    const def = defineEndpoint({ subject: ctx.names.subject("traced"), service: "t", request: z.object({}), reply: z.object({}) });
    bus.serve(def, async () => ({}));
    await bus.request(def, {});
    expect(extracted).toContain(TRACEPARENT);
  });

  it("carries the publisher's trace context to the event handler", async () => {
    const extracted: string[] = [];
    propagation.setGlobalPropagator(recordingPropagator(extracted));
    const def = defineEvent({ subject: ctx.names.subject("traced"), stream: ctx.names.stream, data: z.object({}) });
    const bus = await ctx.harness.open([def]);
    let handled = false;
    await bus.subscribe(def, ctx.names.durable("d"), async () => void (handled = true));
    await bus.publish(def.subject, envelopeFor(def, {}));
    await waitFor(() => handled);
    expect(extracted).toContain(TRACEPARENT);
  });
};
