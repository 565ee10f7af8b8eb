import { defineEvent } from "@fit/contracts";
import { connect, nanos, StorageType } from "nats";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { connectNatsBus, createBus, type Bus } from "../../src/index.ts";
import { describeBusContract } from "../bus-contract.ts";
import { heldSubscription } from "../contract/batches.ts";
import { captureLogger, envelopeFor, sleep, uniqueNames, waitFor } from "../support.ts";

const batchEvent = (names: ReturnType<typeof uniqueNames>) =>
  defineEvent({ subject: names.subject("logged"), stream: names.stream, data: z.object({ grams: z.number() }) });

const url = process.env.TEST_NATS_URL ?? "nats://127.0.0.1:4222";

// Each `open` is a new connection, as each replica is its own process. Streams (and buckets) the test created are deleted.
describeBusContract(`NATS bus (${url})`, (logger) => {
  const buses: Bus[] = [];
  const streams = new Set<string>();
  return {
    async open(defs) {
      for (const d of defs) streams.add(d.stream);
      const bus = await connectNatsBus({ url, name: "bus-contract-test", logger, streams: defs });
      buses.push(bus);
      // A bucket is a stream named KV_<bucket>: noted so that close removes it too.
      return { ...bus, keyValue: (bucket, options) => (streams.add(`KV_${bucket}`), bus.keyValue(bucket, options)) };
    },
    async close() {
      await Promise.all(buses.map((b) => b.close()));
      if (streams.size === 0) return;
      const nc = await connect({ servers: url });
      const jsm = await nc.jetstreamManager();
      await Promise.all([...streams].map((s) => jsm.streams.delete(s).catch(() => false)));
      await nc.close();
    },
  };
});

describe("createBus with a NATS URL", () => {
  it("connects to NATS and creates the stream with explicit subjects and a 2-minute duplicate window", async () => {
    const { stream, subject } = uniqueNames();
    const def = defineEvent({ subject: subject("made"), stream, data: z.object({}) });
    const bus = await createBus({ natsUrl: url, name: "bus-test", logger: captureLogger().logger, streams: [def] });
    const nc = await connect({ servers: url });
    const jsm = await nc.jetstreamManager();
    try {
      await bus.ping();
      const info = await jsm.streams.info(stream);
      expect(info.config.subjects).toEqual([def.subject]);
      expect(info.config.duplicate_window).toBe(nanos(120_000));
      expect(info.config.storage).toBe(StorageType.File);
    } finally {
      await bus.close();
      await jsm.streams.delete(stream);
      await nc.close();
    }
  });
});

describe("the nats client as patched (patches/nats@2.29.3.patch)", () => {
  it("sends what the callbacks of one event-loop turn publish in one write", async () => {
    const nc = await connect({ servers: url });
    const { transport } = (nc as unknown as { protocol: { transport: { send(frame: Uint8Array): void } } }).protocol;
    const frames: string[] = [];
    const send = transport.send.bind(transport);
    transport.send = (frame) => (frames.push(Buffer.from(frame).toString()), send(frame));
    const { subject } = uniqueNames();
    try {
      // Two timers due at once run in the same timers phase, each followed by its own microtasks: as two requests
      // read from two sockets in one poll phase are.
      await new Promise<void>((resolve) => {
        setTimeout(() => nc.publish(subject("first")), 0);
        setTimeout(() => (nc.publish(subject("second")), resolve()), 0);
      });
      await nc.flush();
      const withPublishes = frames.filter((frame) => frame.includes("PUB "));
      expect(withPublishes).toHaveLength(1);
      expect(withPublishes[0]).toContain(subject("first"));
      expect(withPublishes[0]).toContain(subject("second"));
    } finally {
      await nc.close();
    }
  });
});

describe("a NATS key-value bucket", () => {
  // The shared rate-limit store relies on this: a deleted key is no window, and its next write replaces the marker.
  it("reads a deleted key as an empty value at the marker's revision, which a compare-and-set replaces", async () => {
    const { bucket } = uniqueNames();
    const name = bucket("deleted");
    const bus = await connectNatsBus({ url, name: "bus-test", logger: captureLogger().logger });
    const nc = await connect({ servers: url });
    try {
      const kv = await bus.keyValue(name, { maxAgeMs: 60_000 });
      const written = await kv.compareAndSet("k", "1", null);
      await (await nc.jetstream().views.kv(name)).delete("k");
      const marker = await kv.get("k");
      expect(marker?.value).toBe("");
      expect(marker?.revision).toBeGreaterThan(written!);
      expect(await kv.compareAndSet("k", "2", marker!.revision)).not.toBeNull();
      expect((await kv.get("k"))?.value).toBe("2");
    } finally {
      await bus.close();
      await (await nc.jetstreamManager()).streams.delete(`KV_${name}`).catch(() => false);
      await nc.close();
    }
  });
});

describe("a NATS subscription with a batch handler (docs/decisions/0088-batched-event-handling.md)", () => {
  const withBus = async (work: (bus: Bus, names: ReturnType<typeof uniqueNames>, def: ReturnType<typeof batchEvent>) => Promise<void>) => {
    const names = uniqueNames();
    const def = batchEvent(names);
    const bus = await connectNatsBus({ url, name: "bus-batch-test", logger: captureLogger().logger, streams: [def] });
    try {
      await work(bus, names, def);
    } finally {
      await bus.close();
      const nc = await connect({ servers: url });
      await (await nc.jetstreamManager()).streams.delete(names.stream).catch(() => false);
      await nc.close();
    }
  };

  it("gives the events waiting behind a slow one to the batch handler together, and a lone event to the other", async () => {
    await withBus(async (bus, names, def) => {
      const subscription = await heldSubscription(bus, def, names.durable("d"));
      await bus.publish(def.subject, envelopeFor(def, { grams: 0 }));
      for (let g = 1; g < 6; g++) await bus.publish(def.subject, envelopeFor(def, { grams: g }));
      // Pulled ahead while the first is held: the subscription's prefetch (10) covers them all.
      await sleep(200);
      subscription.release();
      await waitFor(() => subscription.handled.length >= 6);
      expect(subscription.handled).toEqual([0, 1, 2, 3, 4, 5]);
      expect(subscription.batches).toEqual([5]);
      await bus.publish(def.subject, envelopeFor(def, { grams: 6 }));
      await waitFor(() => subscription.handled.length >= 7);
      expect(subscription.batches).toEqual([5]);
    });
  });

  it("hands the events of a failed batch on one by one, slower than ack_wait, and none comes back", async () => {
    await withBus(async (bus, names, def) => {
      const subscription = await heldSubscription(bus, def, names.durable("d"), { batchFails: true, eachMs: 300, options: { ackWaitMs: 900, retryDelayMs: 30 } });
      await bus.publish(def.subject, envelopeFor(def, { grams: 0 }));
      await sleep(50);
      for (let g = 1; g < 6; g++) await bus.publish(def.subject, envelopeFor(def, { grams: g }));
      await sleep(200);
      subscription.release();
      await waitFor(() => subscription.handled.length >= 6, 10_000);
      // Five events at 300 ms each is past ack_wait: those still waiting were told to the server as being worked on.
      await sleep(1_500);
      expect(subscription.batches).toEqual([5]);
      expect(subscription.handled).toEqual([0, 1, 2, 3, 4, 5]);
    });
  });

  it("drops a poison event of a batch and hands the rest together", async () => {
    await withBus(async (bus, names, def) => {
      const subscription = await heldSubscription(bus, def, names.durable("d"));
      await bus.publish(def.subject, envelopeFor(def, { grams: 0 }));
      const nc = await connect({ servers: url });
      const js = nc.jetstream();
      await js.publish(def.subject, new TextEncoder().encode("{not json"));
      for (let g = 1; g < 4; g++) await bus.publish(def.subject, envelopeFor(def, { grams: g }));
      await nc.close();
      await sleep(200);
      subscription.release();
      await waitFor(() => subscription.handled.length >= 4);
      expect(subscription.handled).toEqual([0, 1, 2, 3]);
      expect(subscription.batches).toEqual([3]);
    });
  });
});
