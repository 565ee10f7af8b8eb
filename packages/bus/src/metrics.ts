import { AppError } from "@fit/contracts";
import { lazyInstruments } from "@fit/telemetry";

interface WatchedConsumer {
  attributes: { "messaging.destination.name": string; "messaging.consumer.group.name": string };
  pending(): Promise<number>;
}

const watched = new Set<WatchedConsumer>();

const instruments = lazyInstruments("@fit/bus", (meter) => {
  const consumerPending = meter.createObservableGauge("fit.bus.consumer.pending", {
    description: "Events stored for a durable consumer and not handed out yet (JetStream's num_pending)",
    unit: "{event}",
  });
  // Read at collection (a scrape), never on the hot path; a consumer that cannot be asked is left out.
  consumerPending.addCallback(async (result) => {
    await Promise.all(
      [...watched].map(async (consumer) => {
        const pending = await consumer.pending().catch(() => undefined);
        if (pending !== undefined) result.observe(pending, consumer.attributes);
      }),
    );
  });
  return {
    requestDuration: meter.createHistogram("fit.bus.request.duration", {
      description: "Bus request/reply round trips as the caller sees them; error.type is the AppError code (timeout, unavailable, ...)",
      unit: "s",
    }),
    redeliveries: meter.createCounter("fit.bus.event.redeliveries", {
      description: "Deliveries of an event after its first (a handler failed or did not acknowledge in time)",
      unit: "{delivery}",
    }),
  };
});

/** Times a request; the failure's AppError code becomes error.type, so timeouts are a series of their own. */
export const measureRequest = async <T>(subject: string, send: () => Promise<T>): Promise<T> => {
  const startedAt = performance.now();
  let errorType: string | undefined;
  try {
    return await send();
  } catch (err) {
    errorType = err instanceof AppError ? err.code : "error";
    throw err;
  } finally {
    instruments().requestDuration.record((performance.now() - startedAt) / 1_000, {
      "messaging.destination.name": subject,
      ...(errorType ? { "error.type": errorType } : {}),
    });
  }
};

/** Counts a delivery that is not an event's first. */
export const countDelivery = (subject: string, durable: string, deliveryCount: number): void => {
  if (deliveryCount > 1) instruments().redeliveries.add(1, { "messaging.destination.name": subject, "messaging.consumer.group.name": durable });
};

/**
 * Reports a durable's backlog at each collection until the returned function is called, and starts its
 * redelivery count at 0 so the series exists before anything goes wrong.
 */
export const watchConsumer = (subject: string, durable: string, pending: () => Promise<number>): (() => void) => {
  const consumer: WatchedConsumer = { attributes: { "messaging.destination.name": subject, "messaging.consumer.group.name": durable }, pending };
  instruments().redeliveries.add(0, consumer.attributes);
  watched.add(consumer);
  return () => void watched.delete(consumer);
};
