import { AppError, eventEnvelope, type EventDef, type EventEnvelope } from "@fit/contracts";
import { z } from "zod";
import type { Delivery, EventHandler, Logger, SubscribeOptions } from "./types.ts";
import { issuesText } from "./reply-codec.ts";
import { countDelivery } from "./metrics.ts";
import { extractTrace, inSpan, SpanKind } from "./trace.ts";

/** Event rules shared by both buses: what is published, and what a delivery's outcome is. */
export const subscribeDefaults = { ackWaitMs: 30_000, maxDeliver: 10, retryDelayMs: 1_000, prefetch: 10 } as const;
export type ResolvedSubscribeOptions = Required<SubscribeOptions>;
export const resolveSubscribeOptions = (opts: SubscribeOptions = {}): ResolvedSubscribeOptions => ({
  ...subscribeDefaults,
  ...Object.fromEntries(Object.entries(opts).filter(([, v]) => v !== undefined)),
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

/**
 * Runs one delivery. Resolves → ack. Throws → retry later, unless this was the last allowed delivery (then drop,
 * logged: it needs a person). An envelope that does not parse can never succeed, so it is dropped at once.
 */
export const deliver = async <E extends EventDef>(
  def: E,
  durable: string,
  handler: EventHandler<E>,
  data: string,
  headers: Record<string, string>,
  deliveryCount: number,
  opts: ResolvedSubscribeOptions,
  logger: Logger,
  delivery: Delivery,
): Promise<Outcome> => {
  const where = { subject: def.subject, durable, deliveryCount };
  let event: EventEnvelope<z.output<E["data"]>>;
  try {
    const parsed = envelopeOf(def).safeParse(JSON.parse(data));
    if (!parsed.success) {
      logger.error({ ...where, issues: issuesText(parsed.error) }, "poison event dropped: envelope does not parse");
      return { kind: "drop" };
    }
    event = parsed.data as EventEnvelope<z.output<E["data"]>>;
  } catch {
    logger.error(where, "poison event dropped: not JSON");
    return { kind: "drop" };
  }
  countDelivery(def.subject, durable, deliveryCount);
  const attrs = { "messaging.destination.name": def.subject, "messaging.consumer.group.name": durable };
  try {
    await inSpan(`${def.subject} process`, SpanKind.CONSUMER, extractTrace(headers), attrs, () => handler(event, delivery));
    return { kind: "ack" };
  } catch (err) {
    if (deliveryCount >= opts.maxDeliver) {
      logger.error({ ...where, err, eventId: event.id }, "event handler failed on its last delivery; giving up");
      return { kind: "drop" };
    }
    logger.warn({ ...where, err, eventId: event.id }, "event handler failed; will be redelivered");
    return { kind: "retry", delayMs: retryDelay(opts, deliveryCount) };
  }
};
