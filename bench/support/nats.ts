import { randomBytes } from "node:crypto";
import { AckPolicy, connect, DeliverPolicy } from "nats";

export const NATS_URL = process.env["BENCH_NATS_URL"] ?? "nats://127.0.0.1:4222";

export interface Arrival {
  /** performance.now() when this process received the event. */
  receivedAt: number;
  /** When the stream stored it (the outbox relay's publish), on the same performance.now() clock. */
  storedAt: number;
}

/**
 * A durable consumer of our own on one event subject, next to the services' ones: it sees an event when any
 * other consumer could, independently of how fast the service's own projection applies it.
 */
export const watchEvents = async (namespace: string, stream: string, subject: string, keyOf: (data: unknown) => string) => {
  const nc = await connect({ servers: NATS_URL, name: "bench-event-lag" });
  const jsm = await nc.jetstreamManager();
  const streamName = `${namespace}_${stream}`;
  const durable = `bench-lag-${randomBytes(3).toString("hex")}`;
  await jsm.consumers.add(streamName, {
    durable_name: durable,
    filter_subject: `${namespace}.${subject}`,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.New,
  });
  const messages = await (await nc.jetstream().consumers.get(streamName, durable)).consume({ max_messages: 64 });
  // An event can arrive before the write's HTTP reply does, so arrivals wait here for their reader.
  const early = new Map<string, Arrival>();
  const waiting = new Map<string, (arrival: Arrival) => void>();
  const loop = (async () => {
    for await (const m of messages) {
      const arrival = { receivedAt: performance.now(), storedAt: m.info.timestampNanos / 1e6 - performance.timeOrigin };
      m.ack();
      const key = keyOf(m.json<{ data: unknown }>().data);
      const reader = waiting.get(key);
      if (reader) reader(arrival);
      else early.set(key, arrival);
    }
  })();

  return {
    /** The arrival of the event keyed `key`, or null after `timeoutMs`. */
    arrival: (key: string, timeoutMs: number) =>
      new Promise<Arrival | null>((resolve) => {
        const known = early.get(key);
        if (known) return resolve(known);
        const timer = setTimeout(() => {
          waiting.delete(key);
          resolve(null);
        }, timeoutMs);
        waiting.set(key, (arrival) => {
          clearTimeout(timer);
          waiting.delete(key);
          resolve(arrival);
        });
      }),
    close: async () => {
      await messages.close();
      await loop;
      await jsm.consumers.delete(streamName, durable).catch(() => false);
      await nc.close();
    },
  };
};
