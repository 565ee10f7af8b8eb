// A bus for the service under test that behaves exactly like the one it wraps, and records what went through
// it: the test can replay the service's own events, and knows when every one of them has been handled, so its
// checks never run while events are still in flight.
import type { Bus } from "@fit/bus";
import type { EventEnvelope } from "@fit/contracts";

interface ItemData {
  accountId: string;
  itemId: string;
  date: string;
  previousDate?: string | null;
}

/** Records only the events on `subjects`; everything else passes through unseen. */
export const recordingBus = (inner: Bus, subjects: readonly string[]) => {
  const published: { subject: string; envelope: EventEnvelope<ItemData> }[] = [];
  const handled = new Set<string>();
  const bus: Bus = {
    request: (def, req, opts) => inner.request(def, req, opts),
    requestJson: (def, req, opts) => inner.requestJson(def, req, opts),
    serve: (def, handler) => inner.serve(def, handler),
    publish: async (subject, envelope, opts) => {
      await inner.publish(subject, envelope, opts);
      if (subjects.includes(subject)) published.push({ subject, envelope: envelope as EventEnvelope<ItemData> });
    },
    subscribe: (def, durable, handler, opts) =>
      inner.subscribe(
        def,
        durable,
        async (event, delivery) => {
          await handler(event, delivery);
          handled.add(event.id);
        },
        opts,
      ),
    ensureStreams: (defs) => inner.ensureStreams(defs),
    broadcast: (subject, data) => inner.broadcast(subject, data),
    listen: (subject, handler, onLive) => inner.listen(subject, handler, onLive),
    keyValue: (bucket, options) => inner.keyValue(bucket, options),
    ping: () => inner.ping(),
    close: () => inner.close(),
  };
  return { bus, published, handled };
};
