import type { EventDef } from "@fit/contracts";
import { AckPolicy, DeliverPolicy, nanos, NatsError, StringCodec, type JetStreamClient, type JetStreamManager, type JsMsg } from "nats";
import { deliverAll, type Incoming, type Outcome, type ResolvedSubscribeOptions } from "../event-codec.ts";
import { watchConsumer } from "../metrics.ts";
import type { BatchHandler, EventHandler, Logger, Subscription } from "../types.ts";
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

/** What a look for a further waiting message finds when none has come through yet. */
const NOTHING_WAITING = Symbol("nothing waiting");
const turnOfTheLoop = () => new Promise<typeof NOTHING_WAITING>((resolve) => setImmediate(resolve, NOTHING_WAITING));

/**
 * Pulls in a loop, one event at a time per replica, or with a batch handler the events already waiting together
 * (docs/decisions/0088-batched-event-handling.md); replicas on the same durable share its events because the
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
  handlers: { one: EventHandler<E>; batch: BatchHandler<E> | undefined },
  opts: ResolvedSubscribeOptions,
  logger: Logger,
): Promise<Subscription> => {
  await ensureConsumer(jsm, def, durable, opts);
  const consumer = await js.consumers.get(def.stream, durable);
  // The iterator, not a callback: it pulls again only as its messages are taken, which holds the prefetch.
  const messages = await consumer.consume({ max_messages: opts.prefetch });
  const iterator = messages[Symbol.asyncIterator]();
  const following = () => {
    const next = iterator.next();
    // Awaited later; until then a failed iterator must not count as an unhandled rejection.
    next.catch(() => {});
    return next;
  };

  /**
   * The message in hand and, with a batch handler, those the iterator already holds, up to the prefetch. A failing
   * iterator ends the look: the messages in hand are handled, and the failure comes with the next message.
   */
  const take = async (first: JsMsg) => {
    const hand = [first];
    let next: ReturnType<typeof following> | undefined;
    while (handlers.batch && hand.length < opts.prefetch) {
      next = following();
      const more = await Promise.race([next, turnOfTheLoop()]).catch((): typeof NOTHING_WAITING => NOTHING_WAITING);
      if (more === NOTHING_WAITING || more.done) break;
      hand.push(more.value);
      next = undefined;
    }
    return { hand, next };
  };

  const incoming = (m: JsMsg): Incoming => ({
    data: sc.decode(m.data),
    headers: m.headers ? fromNatsHeaders(m.headers) : {},
    deliveryCount: m.info.deliveryCount,
    delivery: { working: () => m.working() },
  });
  /** Settles each message of the hand as soon as its outcome is known; any it could not handle go back at once. */
  const handle = async (hand: JsMsg[]) => {
    const unsettled = new Set(hand);
    const settleOne = (m: JsMsg, outcome: Outcome) => {
      unsettled.delete(m);
      // A failed ack only means the event comes back after ack_wait; consumers are idempotent.
      try {
        if (outcome.kind === "ack") m.ack();
        else if (outcome.kind === "retry") m.nak(outcome.delayMs);
        else m.term();
      } catch (err) {
        logger.warn({ err, subject: def.subject, durable }, "could not settle event");
      }
    };
    try {
      await deliverAll(def, durable, handlers, hand.map(incoming), opts, logger, (i, outcome) => settleOne(hand[i]!, outcome));
    } catch (err) {
      logger.error({ err, subject: def.subject, durable, events: unsettled.size }, "events not handled; handed back");
      for (const m of unsettled) settleOne(m, { kind: "retry", delayMs: opts.retryDelayMs });
    }
  };

  const unwatch = watchConsumer(def.subject, durable, async () => (await jsm.consumers.info(def.stream, durable)).num_pending);

  const loop = (async () => {
    let next = following();
    for (let result = await next; !result.done; result = await next) {
      const taken = await take(result.value);
      await handle(taken.hand);
      next = taken.next ?? following();
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
