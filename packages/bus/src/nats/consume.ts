import type { EventDef } from "@fit/contracts";
import { AckPolicy, DeliverPolicy, nanos, NatsError, StringCodec, type JetStreamClient, type JetStreamManager, type JsMsg } from "nats";
import { deliver, type ResolvedSubscribeOptions } from "../event-codec.ts";
import { watchConsumer } from "../metrics.ts";
import type { EventHandler, Logger, Subscription } from "../types.ts";
import { fromNatsHeaders } from "./headers.ts";

const CONSUMER_NOT_FOUND = 10014;
const sc = StringCodec();

/**
 * A durable pull consumer per (stream, durable): explicit ack, only def.subject, every stored event from the
 * start. Re-running it adjusts ack_wait and max_deliver, which the server lets a durable change.
 */
const ensureConsumer = async (jsm: JetStreamManager, def: EventDef, durable: string, opts: ResolvedSubscribeOptions) => {
  const tunable = { ack_wait: nanos(opts.ackWaitMs), max_deliver: opts.maxDeliver };
  try {
    const info = await jsm.consumers.info(def.stream, durable);
    if (info.config.filter_subject !== def.subject) {
      throw new Error(`durable ${durable} on ${def.stream} already consumes ${info.config.filter_subject}, not ${def.subject}`);
    }
    if (info.config.ack_wait !== tunable.ack_wait || info.config.max_deliver !== tunable.max_deliver) {
      await jsm.consumers.update(def.stream, durable, tunable);
    }
  } catch (err) {
    if (!(err instanceof NatsError) || err.api_error?.err_code !== CONSUMER_NOT_FOUND) throw err;
    await jsm.consumers.add(def.stream, {
      durable_name: durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      filter_subject: def.subject,
      ...tunable,
    });
  }
};

/**
 * Pulls in a loop, one event at a time per replica; replicas on the same durable share its events because the
 * server hands each pulled message to one of them. The ack is sent without waiting for the server's confirmation:
 * a confirmed ack cost each event another request and reply on both sides (docs/performance.md), and an ack that
 * is lost only brings the event back after ack_wait, which every handler takes as a repeat
 * (docs/decisions/0005-recompute-not-increment.md).
 */
export const consume = async <E extends EventDef>(
  js: JetStreamClient,
  jsm: JetStreamManager,
  def: E,
  durable: string,
  handler: EventHandler<E>,
  opts: ResolvedSubscribeOptions,
  logger: Logger,
): Promise<Subscription> => {
  await ensureConsumer(jsm, def, durable, opts);
  const consumer = await js.consumers.get(def.stream, durable);
  const messages = await consumer.consume({ max_messages: opts.prefetch });

  const settle = async (m: JsMsg) => {
    const headers = m.headers ? fromNatsHeaders(m.headers) : {};
    const outcome = await deliver(def, durable, handler, sc.decode(m.data), headers, m.info.deliveryCount, opts, logger, { working: () => m.working() });
    if (outcome.kind === "ack") m.ack();
    else if (outcome.kind === "retry") m.nak(outcome.delayMs);
    else m.term();
  };

  const unwatch = watchConsumer(def.subject, durable, async () => (await jsm.consumers.info(def.stream, durable)).num_pending);

  const loop = (async () => {
    for await (const m of messages) {
      // A failed ack only means the event comes back after ack_wait; consumers are idempotent.
      await settle(m).catch((err: unknown) => logger.warn({ err, subject: def.subject, durable }, "could not settle event"));
    }
  })().catch((err: unknown) => logger.error({ err, subject: def.subject, durable }, "event consumer stopped"));

  return {
    stop: async () => {
      unwatch();
      await messages.close();
      await loop;
    },
  };
};
