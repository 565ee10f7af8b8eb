import { AppError, type EndpointDef, type EventDef, type EventEnvelope } from "@fit/contracts";
import { context } from "@opentelemetry/api";
import { connect, ErrorCode, Events, NatsError, StringCodec, type Subscription as NatsSubscription } from "nats";
import type { z } from "zod";
import { encodeEvent, resolveSubscribeOptions } from "../event-codec.ts";
import { answer, ask, decodeReply, replyText, type SendQuestion } from "../reply-codec.ts";
import { withTimeout } from "../timeout.ts";
import { injectTrace, inSpan, SpanKind } from "../trace.ts";
import type { Bus, EndpointHandler, EventHandler, KeyValue, Logger, RequestOptions, EventSubscribeOptions, Subscription } from "../types.ts";
import { consume } from "./consume.ts";
import { fromNatsHeaders, toNatsHeaders } from "./headers.ts";
import { openNatsKeyValue } from "./key-value.ts";
import { ensureStreams } from "./streams.ts";

export interface NatsBusConfig {
  url: string;
  /** Connection name, shown by the server's monitoring; use the service name. */
  name: string;
  logger: Logger;
  /** Events this service publishes or consumes; their streams are created or extended at connect. */
  streams?: readonly EventDef[];
  /** Where the server asks for them (docs/decisions/0061-per-service-nats-users-and-database-roles.md). */
  credentials?: NatsCredentials | undefined;
}

/** How a service proves who it is to NATS and checks who NATS is. Every field unset: an open server, no TLS. */
export interface NatsCredentials {
  user?: string | undefined;
  password?: string | undefined;
  /** A PEM file of the certificate authority the server's certificate must chain to (a tls:// URL). */
  caFile?: string | undefined;
  /** The prefix of this connection's reply inboxes, the only inboxes its user may subscribe to. */
  inboxPrefix?: string | undefined;
}

const sc = StringCodec();
const PUBLISH_TIMEOUT_MS = 5_000;
const PING_TIMEOUT_MS = 2_000;
/** Key-value operations sit on request paths (rate limits): a stalled server must not hold a request long. */
const KEY_VALUE_TIMEOUT_MS = 500;

/** Tells "nobody is there" (NATS answers 503 at once) apart from "nobody answered in time". */
const busError = (err: unknown, what: string, timeoutMs: number): AppError => {
  if (err instanceof AppError) return err;
  if (err instanceof NatsError && err.code === String(ErrorCode.NoResponders)) return new AppError("unavailable", `no responders for ${what}`);
  if (err instanceof NatsError && err.code === String(ErrorCode.Timeout)) return new AppError("timeout", `${what} did not answer within ${timeoutMs} ms`);
  return new AppError("unavailable", `bus failure on ${what}`, err instanceof Error ? err.message : String(err));
};

export const connectNatsBus = async (config: NatsBusConfig): Promise<Bus> => {
  const { logger } = config;
  // Reconnect forever: a NATS restart must not need a service restart; requests fail fast meanwhile.
  // No async traces: each request would capture a stack for an error it almost never raises, a cost on every question.
  const { user, password, caFile, inboxPrefix } = config.credentials ?? {};
  const nc = await connect({
    servers: config.url,
    name: config.name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
    noAsyncTraces: true,
    ...(user === undefined ? {} : { user, pass: password }),
    ...(caFile === undefined ? {} : { tls: { caFile } }),
    ...(inboxPrefix === undefined ? {} : { inboxPrefix }),
  });
  const js = nc.jetstream();
  const jsm = await nc.jetstreamManager();
  const kvClient = nc.jetstream({ timeout: KEY_VALUE_TIMEOUT_MS });
  let connected = true;
  /** Told of every drop and return of the connection (listen's liveness). */
  const watchers = new Set<(up: boolean) => void>();
  void (async () => {
    for await (const s of nc.status()) {
      if (s.type === Events.Disconnect || s.type === Events.Reconnect) logger.warn({ status: s.type, server: s.data }, "nats connection changed");
      if (s.type === Events.Disconnect) connected = false;
      if (s.type === Events.Reconnect) connected = true;
      if (s.type === Events.Disconnect || s.type === Events.Reconnect) for (const watch of watchers) watch(connected);
    }
  })();

  const servers: NatsSubscription[] = [];
  const inFlight = new Set<Promise<void>>();
  const consumers = new Set<Subscription>();
  const buckets = new Map<string, Promise<KeyValue>>();
  let closed = false;

  const send: SendQuestion = async (subject, data, headers, timeout) => {
    const msg = await nc
      .request(subject, sc.encode(data), { timeout, headers: toNatsHeaders(headers) })
      .catch((err: unknown) => Promise.reject(busError(err, subject, timeout)));
    return { data: sc.decode(msg.data), headers: msg.headers ? fromNatsHeaders(msg.headers) : {} };
  };

  const bus: Bus = {
    request: async <E extends EndpointDef>(def: E, req: z.input<E["request"]>, opts: RequestOptions = {}) =>
      ask(def, req, opts, send, decodeReply) as Promise<z.output<E["reply"]>>,
    requestJson: async (def, req, opts = {}) => ask(def, req, opts, send, replyText),

    serve<E extends EndpointDef>(def: E, handler: EndpointHandler<E>) {
      // The callback must stay synchronous; the async work is tracked so stop() and close() can wait for it.
      const answering = new Set<Promise<void>>();
      const sub = nc.subscribe(def.subject, {
        queue: def.service,
        callback: (err, msg) => {
          if (err) return logger.error({ err, subject: def.subject }, "serve subscription failed");
          const incoming = { data: sc.decode(msg.data), headers: msg.headers ? fromNatsHeaders(msg.headers) : {} };
          const work = answer(def, handler, incoming, logger)
            .then((reply) => void msg.respond(sc.encode(reply.data), { headers: toNatsHeaders(reply.headers) }))
            .catch((e: unknown) => logger.error({ err: e, subject: def.subject }, "could not send reply"))
            .finally(() => {
              inFlight.delete(work);
              answering.delete(work);
            });
          inFlight.add(work);
          answering.add(work);
        },
      });
      servers.push(sub);
      return {
        stop: async () => {
          servers.splice(servers.indexOf(sub), 1);
          await sub.drain();
          await Promise.all([...answering]);
        },
      };
    },

    async publish(subject: string, envelope: EventEnvelope, opts: { headers?: Record<string, string> } = {}) {
      const data = encodeEvent(subject, envelope);
      const headers = { ...opts.headers };
      await inSpan(`${subject} publish`, SpanKind.PRODUCER, context.active(), { "messaging.destination.name": subject }, async () => {
        injectTrace(headers);
        // msgID becomes Nats-Msg-Id: the stream drops a second copy within its duplicate window.
        await js
          .publish(subject, sc.encode(data), { msgID: envelope.id, headers: toNatsHeaders(headers), timeout: PUBLISH_TIMEOUT_MS })
          .catch((err: unknown) =>
            Promise.reject(
              err instanceof NatsError && err.code === String(ErrorCode.NoResponders)
                ? new AppError("unavailable", `no stream stores ${subject}`)
                : busError(err, `publish on ${subject}`, PUBLISH_TIMEOUT_MS),
            ),
          );
      });
    },

    async subscribe<E extends EventDef>(def: E, durable: string, handler: EventHandler<E>, opts?: EventSubscribeOptions<E>) {
      if (closed) throw new AppError("unavailable", "bus is closed");
      await ensureStreams(jsm, [def], logger);
      const sub = await consume(js, jsm, def, durable, { one: handler, batch: opts?.batch }, resolveSubscribeOptions(opts), logger);
      consumers.add(sub);
      return {
        stop: async () => {
          consumers.delete(sub);
          await sub.stop();
        },
      };
    },

    ensureStreams: (defs: readonly EventDef[]) => ensureStreams(jsm, defs, logger),

    async broadcast(subject, data) {
      if (closed) throw new AppError("unavailable", "bus is closed");
      nc.publish(subject, sc.encode(data));
      await withTimeout(nc.flush(), PING_TIMEOUT_MS, "nats flush timed out").catch((err: unknown) => Promise.reject(busError(err, `broadcast on ${subject}`, 0)));
    },

    async listen(subject, handler, onLive) {
      if (closed) throw new AppError("unavailable", "bus is closed");
      const sub = nc.subscribe(subject, {
        callback: (err, msg) => {
          if (err) return logger.error({ err, subject }, "listen subscription failed");
          handler(sc.decode(msg.data));
        },
      });
      // Live only once the server has answered a ping sent after the SUB (the client re-sends it on reconnect):
      // from then on, every broadcast reaches this listener.
      let epoch = 0;
      const confirm = (up: boolean) => {
        const mine = ++epoch;
        if (!up) return onLive(false);
        nc.flush().then(() => mine === epoch && !sub.isClosed() && onLive(true), () => undefined);
      };
      watchers.add(confirm);
      await nc.flush();
      if (epoch === 0 && connected) onLive(true);
      return {
        stop: async () => {
          watchers.delete(confirm);
          sub.unsubscribe();
        },
      };
    },

    keyValue(bucket, options) {
      let opened = buckets.get(bucket);
      if (!opened) {
        opened = openNatsKeyValue(kvClient, bucket, options, () => connected && !closed);
        // A failed open (NATS down) is not remembered: the next caller tries again.
        opened.catch(() => buckets.delete(bucket));
        buckets.set(bucket, opened);
      }
      return opened;
    },

    async ping() {
      if (closed || nc.isClosed()) throw new AppError("unavailable", "bus is closed");
      try {
        // A stalled connection must fail the probe, not hang it.
        await withTimeout(nc.rtt(), PING_TIMEOUT_MS, "nats ping timed out");
        await withTimeout(jsm.getAccountInfo(), PING_TIMEOUT_MS, "jetstream ping timed out");
      } catch (err) {
        throw busError(err, "nats ping", 0);
      }
    },

    async close() {
      if (closed) return;
      closed = true;
      await Promise.all(servers.map((s) => s.drain()));
      await Promise.all([...inFlight]);
      await Promise.all([...consumers].map((c) => c.stop()));
      await nc.drain();
    },
  };

  try {
    if (config.streams?.length) await bus.ensureStreams(config.streams);
  } catch (err) {
    await nc.close();
    throw err;
  }
  return bus;
};
