import { AppError, eventEnvelope, type EventDef, type EventEnvelope } from "@fit/contracts";
import { z } from "zod";
import type { BatchHandler, Delivery, EventHandler, Logger, SubscribeOptions } from "./types.ts";
import { issuesText } from "./reply-codec.ts";
import { countDelivery } from "./metrics.ts";
import { extractTrace, inSpan, SpanKind } from "./trace.ts";

// Event rules shared by both buses: what is published, and what a delivery's outcome is.

/**
 * `batchPrefetch` is the prefetch of a subscription with a batch handler: 50 events are one statement in a few
 * milliseconds, and with 10 a burst of food writes took nutrition and insights 9-10 s to catch up after the load
 * against ~1 s (docs/performance.md).
 */
export const subscribeDefaults = { ackWaitMs: 30_000, maxDeliver: 10, retryDelayMs: 1_000, prefetch: 10, batchPrefetch: 50 } as const;
export type ResolvedSubscribeOptions = Required<SubscribeOptions>;
export const resolveSubscribeOptions = (opts: SubscribeOptions & { batch?: unknown } = {}): ResolvedSubscribeOptions => ({
  ackWaitMs: opts.ackWaitMs ?? subscribeDefaults.ackWaitMs,
  maxDeliver: opts.maxDeliver ?? subscribeDefaults.maxDeliver,
  retryDelayMs: opts.retryDelayMs ?? subscribeDefaults.retryDelayMs,
  prefetch: opts.prefetch ?? (opts.batch ? subscribeDefaults.batchPrefetch : subscribeDefaults.prefetch),
});

/** Long enough for the outbox relay's retries (backoff caps at 5 s) to fall inside it many times over. */
export const DUPLICATE_WINDOW_MS = 2 * 60_000;
const MAX_RETRY_DELAY_MS = 60_000;

/** Event subjects grouped by stream. Explicit subjects only: a wildcard could capture a request subject. */
export const subjectsByStream = (defs: readonly EventDef[]): Map<string, Set<string>> => {
  const byStream = new Map<string, Set<string>>();
  for (const def of defs) {
    if (/[*>]/.test(def.subject)) throw new Error(`event subject ${def.subject} must not contain wildcards`);
    const subjects = byStream.get(def.stream) ?? new Set<string>();
    subjects.add(def.subject);
    byStream.set(def.stream, subjects);
  }
  return byStream;
};

const anyEnvelope = eventEnvelope(z.unknown());

/**
 * Each event's envelope schema, built once: building it for every delivery cost ~65 µs an event, twenty times
 * what parsing with it costs (docs/performance.md).
 */
const envelopes = new WeakMap<EventDef, z.ZodType>();
const envelopeOf = <E extends EventDef>(def: E) => {
  let schema = envelopes.get(def);
  if (!schema) envelopes.set(def, (schema = eventEnvelope(def.data)));
  return schema;
};

/** Publisher side: only a well-formed envelope is stored, in either mode. */
export const encodeEvent = (subject: string, envelope: EventEnvelope): string => {
  const parsed = anyEnvelope.safeParse(envelope);
  if (!parsed.success) throw new AppError("validation", `invalid event envelope for ${subject}`, issuesText(parsed.error));
  return JSON.stringify(parsed.data);
};

export type Outcome = { kind: "ack" } | { kind: "retry"; delayMs: number } | { kind: "drop" };

/** Delay before delivery number `deliveryCount + 1`: exponential from retryDelayMs. */
const retryDelay = (opts: ResolvedSubscribeOptions, deliveryCount: number): number =>
  Math.min(opts.retryDelayMs * 2 ** Math.max(0, deliveryCount - 1), MAX_RETRY_DELAY_MS);

/** A message as either bus hands it over, before its envelope is read. */
export interface Incoming {
  data: string;
  headers: Record<string, string>;
  deliveryCount: number;
  delivery: Delivery;
}

type Received<E extends EventDef> = Incoming & { event: EventEnvelope<z.output<E["data"]>> };

/** The message's event, or null when its envelope can never be handled (logged: a poison event is dropped). */
const receive = <E extends EventDef>(def: E, durable: string, incoming: Incoming, logger: Logger): Received<E> | null => {
  const where = { subject: def.subject, durable, deliveryCount: incoming.deliveryCount };
  try {
    const parsed = envelopeOf(def).safeParse(JSON.parse(incoming.data));
    if (!parsed.success) {
      logger.error({ ...where, issues: issuesText(parsed.error) }, "poison event dropped: envelope does not parse");
      return null;
    }
    countDelivery(def.subject, durable, incoming.deliveryCount);
    return { ...incoming, event: parsed.data as EventEnvelope<z.output<E["data"]>> };
  } catch {
    logger.error(where, "poison event dropped: not JSON");
    return null;
  }
};

const spanAttributes = (def: EventDef, durable: string) => ({ "messaging.destination.name": def.subject, "messaging.consumer.group.name": durable });

/**
 * Runs one event's handler. Resolves → ack. Throws → retry later, unless this was the last allowed delivery (then
 * drop, logged: it needs a person).
 */
const handleOne = async <E extends EventDef>(
  def: E,
  durable: string,
  handler: EventHandler<E>,
  { event, headers, deliveryCount, delivery }: Received<E>,
  opts: ResolvedSubscribeOptions,
  logger: Logger,
): Promise<Outcome> => {
  try {
    await inSpan(`${def.subject} process`, SpanKind.CONSUMER, extractTrace(headers), spanAttributes(def, durable), () => handler(event, delivery));
    return { kind: "ack" };
  } catch (err) {
    const where = { subject: def.subject, durable, deliveryCount, err, eventId: event.id };
    if (deliveryCount >= opts.maxDeliver) {
      logger.error(where, "event handler failed on its last delivery; giving up");
      return { kind: "drop" };
    }
    logger.warn(where, "event handler failed; will be redelivered");
    return { kind: "retry", delayMs: retryDelay(opts, deliveryCount) };
  }
};

/** Runs one delivery. An envelope that does not parse can never succeed, so it is dropped at once. */
export const deliver = async <E extends EventDef>(
  def: E,
  durable: string,
  handler: EventHandler<E>,
  incoming: Incoming,
  opts: ResolvedSubscribeOptions,
  logger: Logger,
): Promise<Outcome> => {
  const received = receive(def, durable, incoming, logger);
  return received ? handleOne(def, durable, handler, received, opts, logger) : { kind: "drop" };
};

/**
 * Runs the deliveries in hand, in order, and settles each as soon as its outcome is known: two or more events go
 * to `batch` together, in one span that links every event's trace (docs/decisions/0088-batched-event-handling.md);
 * if it throws, or there is no batch handler, each goes to `handler` alone, and those still waiting their turn are
 * told to the server as being worked on every third of ack_wait, so that a slow pass through them hands none out
 * again.
 */
export const deliverAll = async <E extends EventDef>(
  def: E,
  durable: string,
  handlers: { one: EventHandler<E>; batch: BatchHandler<E> | undefined },
  incoming: Incoming[],
  opts: ResolvedSubscribeOptions,
  logger: Logger,
  settle: (index: number, outcome: Outcome) => void,
): Promise<void> => {
  const received = incoming.map((one) => receive(def, durable, one, logger));
  received.forEach((one, i) => {
    if (!one) settle(i, { kind: "drop" });
  });
  const events = received.filter((one) => one !== null);
  if (handlers.batch && events.length > 1) {
    const { batch } = handlers;
    const traces = events.map((one) => extractTrace(one.headers));
    const attributes = { ...spanAttributes(def, durable), "messaging.batch.message_count": String(events.length) };
    try {
      await inSpan(`${def.subject} process`, SpanKind.CONSUMER, traces[0]!, attributes, () => batch(events.map((one) => one.event)), traces);
      received.forEach((one, i) => {
        if (one) settle(i, { kind: "ack" });
      });
      return;
    } catch (err) {
      logger.warn({ subject: def.subject, durable, err, events: events.length }, "batch handler failed; each event is handled alone");
    }
  }
  let signalled = Date.now();
  for (const [i, one] of received.entries()) {
    if (!one) continue;
    if (Date.now() - signalled > opts.ackWaitMs / 3) {
      for (const waiting of received.slice(i)) waiting?.delivery.working();
      signalled = Date.now();
    }
    settle(i, await handleOne(def, durable, handlers.one, one, opts, logger));
  }
};
