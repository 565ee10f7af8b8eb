import { AppError, type EndpointDef, type EventDef, type EventEnvelope } from "@fit/contracts";
import { context } from "@opentelemetry/api";
import type { z } from "zod";
import { deliver, encodeEvent, resolveSubscribeOptions, subjectsByStream } from "../event-codec.ts";
import { answer, ask, decodeReply, normalizeHeaders, replyText, type SendQuestion } from "../reply-codec.ts";
import { watchConsumer } from "../metrics.ts";
import { injectTrace, inSpan, SpanKind } from "../trace.ts";
import { checkBucket } from "../key-value-names.ts";
import type { Bus, EndpointHandler, EventHandler, KeyValue, Logger, RequestOptions, EventSubscribeOptions, Subscription } from "../types.ts";
import { Durable } from "./durable.ts";
import { EventLog } from "./event-log.ts";
import { createMemoryKeyValue } from "./key-value.ts";
import { Responders } from "./responders.ts";
import { withTimeout } from "../timeout.ts";

export interface InProcessBusConfig {
  logger: Logger;
  streams?: readonly EventDef[];
}

const closedError = () => new AppError("unavailable", "bus is closed");

/**
 * The bus without a server, for one process (docs/decisions/0003-embedded-pglite-and-in-process-bus.md).
 * Everything crosses as JSON text plus headers and goes through the same codecs as the NATS bus, so a payload that only works in memory fails here too.
 */
export const createInProcessBus = (config: InProcessBusConfig): Bus => {
  const { logger } = config;
  const responders = new Responders();
  const streamOf = new Map<string, string>();
  const logs = new Map<string, EventLog>();
  const durables = new Map<string, Durable>();
  const inFlight = new Set<Promise<unknown>>();
  const subscriptions = new Set<Subscription>();
  const buckets = new Map<string, KeyValue>();
  const listeners = new Map<string, Set<(data: string) => void>>();
  let closed = false;

  const track = <T>(work: Promise<T>): Promise<T> => {
    inFlight.add(work);
    void work.catch(() => undefined).finally(() => inFlight.delete(work));
    return work;
  };

  /** Like JetStream: a subject belongs to one stream, and publishing to a subject no stream stores fails. */
  const declareStreams = (defs: readonly EventDef[]): void => {
    for (const [stream, subjects] of subjectsByStream(defs)) {
      for (const subject of subjects) {
        const owner = streamOf.get(subject);
        if (owner !== undefined && owner !== stream) throw new Error(`subject ${subject} is already stored by stream ${owner}`);
        streamOf.set(subject, stream);
      }
      if (!logs.has(stream)) logs.set(stream, new EventLog());
    }
  };

  const send: SendQuestion = async (subject, data, headers, timeout) => {
    const responder = responders.pick(subject);
    if (!responder) throw new AppError("unavailable", `no responders for ${subject}`);
    const work = track(responder({ data, headers: normalizeHeaders(Object.entries(headers)) }));
    return withTimeout(work, timeout, `${subject} did not answer within ${timeout} ms`);
  };

  const bus: Bus = {
    request: async <E extends EndpointDef>(def: E, req: z.input<E["request"]>, opts: RequestOptions = {}) => {
      if (closed) throw closedError();
      return ask(def, req, opts, send, decodeReply) as Promise<z.output<E["reply"]>>;
    },
    requestJson: async (def, req, opts = {}) => {
      if (closed) throw closedError();
      return ask(def, req, opts, send, replyText);
    },

    serve<E extends EndpointDef>(def: E, handler: EndpointHandler<E>) {
      const answering = new Set<Promise<unknown>>();
      const remove = responders.add(def.subject, (msg) => {
        // setImmediate: the handler never runs on the caller's stack, as it would not across a network.
        const work = new Promise((resolve) => setImmediate(resolve)).then(() => answer(def, handler, msg, logger));
        answering.add(work);
        void work.catch(() => undefined).finally(() => answering.delete(work));
        return work;
      });
      return {
        stop: async () => {
          remove();
          await Promise.allSettled([...answering]);
        },
      };
    },

    async publish(subject: string, envelope: EventEnvelope, opts: { headers?: Record<string, string> } = {}) {
      if (closed) throw closedError();
      const data = encodeEvent(subject, envelope);
      await inSpan(`${subject} publish`, SpanKind.PRODUCER, context.active(), { "messaging.destination.name": subject }, async () => {
        const headers = { ...opts.headers };
        injectTrace(headers);
        const stream = streamOf.get(subject);
        const log = stream === undefined ? undefined : logs.get(stream);
        if (!log) throw new AppError("unavailable", `no stream stores ${subject}`);
        if (!log.append(envelope.id, subject, data, normalizeHeaders(Object.entries(headers)))) return;
        const readers = [...durables.values()].filter((d) => streamOf.get(d.subject) === stream);
        for (const d of readers) if (d.subject === subject) d.schedule();
        log.trim(Math.min(...readers.map((d) => d.cursor)));
      });
    },

    async subscribe<E extends EventDef>(def: E, durable: string, handler: EventHandler<E>, opts?: EventSubscribeOptions<E>) {
      if (closed) throw closedError();
      declareStreams([def]);
      const resolved = resolveSubscribeOptions(opts);
      const key = `${def.stream}\u0000${durable}`;
      let d = durables.get(key);
      if (!d) {
        d = new Durable(def.subject, durable, logs.get(def.stream) as EventLog, resolved, logger);
        durables.set(key, d);
      } else if (d.subject !== def.subject) {
        throw new Error(`durable ${durable} on ${def.stream} already consumes ${d.subject}, not ${def.subject}`);
      }
      const consumer = d;
      consumer.opts = resolved; // like a durable's config, the latest subscriber's settings win
      const leave = consumer.join((event, count, delivery) =>
        deliver(def, durable, handler, { data: event.data, headers: event.headers, deliveryCount: count, delivery }, consumer.opts, logger),
      );
      const unwatch = watchConsumer(def.subject, durable, async () => consumer.pending());
      const sub: Subscription = {
        stop: async () => {
          subscriptions.delete(sub);
          unwatch();
          await leave();
        },
      };
      subscriptions.add(sub);
      return sub;
    },

    ensureStreams: async (defs: readonly EventDef[]) => declareStreams(defs),

    async broadcast(subject, data) {
      if (closed) throw closedError();
      for (const listener of listeners.get(subject) ?? []) listener(data);
    },

    async listen(subject, handler, onLive) {
      if (closed) throw closedError();
      const heard = (data: string) => handler(data);
      listeners.set(subject, (listeners.get(subject) ?? new Set()).add(heard));
      // Nothing to lose in one process: live from the start.
      onLive(true);
      return { stop: async () => void listeners.get(subject)?.delete(heard) };
    },

    async keyValue(bucket, options) {
      if (closed) throw closedError();
      checkBucket(bucket);
      // Like a JetStream bucket, the first opener's options stay.
      let kv = buckets.get(bucket);
      if (!kv) buckets.set(bucket, (kv = createMemoryKeyValue(options)));
      return kv;
    },

    async ping() {
      if (closed) throw closedError();
    },

    async close() {
      if (closed) return;
      closed = true;
      responders.clear();
      await Promise.allSettled([...inFlight]);
      await Promise.all([...subscriptions].map((s) => s.stop()));
      for (const d of durables.values()) d.stopTimers();
    },
  };

  declareStreams(config.streams ?? []);
  return bus;
};
