import { AppError, defineEndpoint, defineEvent } from "@fit/contracts";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createInProcessBus, withNamespace } from "../../src/index.ts";
import { captureLogger, envelopeFor } from "../support.ts";

const echo = defineEndpoint({ subject: "unit.echo", service: "unit", request: z.object({ n: z.number() }), reply: z.number() });
const happened = defineEvent({ subject: "unit.thing.happened", stream: "UNIT", data: z.object({ n: z.number() }) });

describe("namespaced buses", () => {
  it("do not answer each other's requests", async () => {
    const shared = createInProcessBus({ logger: captureLogger().logger });
    const a = withNamespace(shared, "a");
    const b = withNamespace(shared, "b");
    a.serve(echo, async ({ n }) => n);
    expect(await a.request(echo, { n: 1 })).toBe(1);
    await expect(b.request(echo, { n: 1 })).rejects.toSatisfy((e) => e instanceof AppError && e.code === "unavailable");
    await shared.close();
  });

  it("deliver events only within their namespace, with the envelope untouched", async () => {
    const shared = createInProcessBus({ logger: captureLogger().logger });
    const a = withNamespace(shared, "a");
    const b = withNamespace(shared, "b");
    await a.ensureStreams([happened]);
    await b.ensureStreams([happened]);
    const seenA: unknown[] = [];
    const seenB: unknown[] = [];
    await a.subscribe(happened, "d", async (event) => void seenA.push(event));
    await b.subscribe(happened, "d", async (event) => void seenB.push(event));
    const envelope = envelopeFor(happened, { n: 7 });
    await a.publish(happened.subject, envelope);
    await expect.poll(() => seenA.length).toBe(1);
    expect(seenA[0]).toEqual(envelope);
    await new Promise((r) => setTimeout(r, 50));
    expect(seenB).toEqual([]);
    await shared.close();
  });

  it("keep key-value buckets apart", async () => {
    const shared = createInProcessBus({ logger: captureLogger().logger });
    const a = await withNamespace(shared, "a").keyValue("LIMITS", { maxAgeMs: 60_000 });
    const b = await withNamespace(shared, "b").keyValue("LIMITS", { maxAgeMs: 60_000 });
    await a.compareAndSet("k", "in a", null);
    expect(await b.get("k")).toBeNull();
    expect((await (await shared.keyValue("a_LIMITS", { maxAgeMs: 60_000 })).get("k"))?.value).toBe("in a");
    await shared.close();
  });
});
