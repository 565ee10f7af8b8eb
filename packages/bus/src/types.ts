import type { EndpointDef, EventDef, EventEnvelope } from "@fit/contracts";
import type { z } from "zod";

/** The subset of pino the bus uses, so any pino logger (or a test double) fits without a dependency. */
export interface Logger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface RequestOptions {
  /** Default 2000. */
  timeoutMs?: number;
  headers?: Record<string, string>;
}

/** What a responder sees besides the request body. Header names are lower-cased in both implementations. */
export interface ServeContext {
  headers: Record<string, string>;
}

export type EndpointHandler<E extends EndpointDef> = (
  req: z.output<E["request"]>,
  ctx: ServeContext,
) => Promise<z.input<E["reply"]>>;

/** The delivery a handler is working on. */
export interface Delivery {
  /**
   * Starts its ack wait again: a handler doing one long piece of work that cannot be cut into steps (an archive's
   * entry inflated) calls it as it goes, so the event is not handed to another replica while it is alive.
   */
  working(): void;
}

export type EventHandler<E extends EventDef> = (event: EventEnvelope<z.output<E["data"]>>, delivery: Delivery) => Promise<void>;

/** Several events of one durable, oldest first, handled together: all of them, or it throws. */
export type BatchHandler<E extends EventDef> = (events: EventEnvelope<z.output<E["data"]>>[]) => Promise<void>;

export interface SubscribeOptions {
  /** How long a delivery may stay unacknowledged before it is handed out again. Default 30 000. */
  ackWaitMs?: number;
  /** Deliveries per event before it is given up (logged). Default 10. */
  maxDeliver?: number;
  /** First redelivery delay after a handler throws; doubles per attempt up to 60 s. Default 1000. */
  retryDelayMs?: number;
  /**
   * Events a replica holds at once (NATS pull batch). Small, because held events age towards ackWaitMs
   * while they wait. Default 10, or 50 with a batch handler, which takes them together. The in-process bus hands
   * one event at a time to each subscriber.
   */
  prefetch?: number;
}

/** A subscription's options and, optionally, a handler for several events at once. */
export interface EventSubscribeOptions<E extends EventDef> extends SubscribeOptions {
  /**
   * Takes the events already waiting together (on NATS: up to `prefetch`, in stream order), so that a handler
   * can write them in one statement instead of one each (docs/decisions/0088-batched-event-handling.md). When it
   * throws, each of those events goes to the one-event handler alone, with its own retries. One event waiting,
   * or the in-process bus, always takes the one-event handler.
   */
  batch?: BatchHandler<E>;
}

export interface Subscription {
  /** Stops taking new events and waits for the one in hand; the durable and its position remain. */
  stop(): Promise<void>;
}

/** A served endpoint; stop() takes this responder out of its queue group (a closing service on a shared bus). */
export interface Responding {
  /** Takes no new request and resolves once the answers already being worked on are sent. */
  stop(): Promise<void>;
}

/** A listener of broadcasts (see Bus.listen). */
export interface Listening {
  /** Stops listening; `onLive(false)` is not called. */
  stop(): Promise<void>;
}

/** A shared key-value bucket (see Bus.keyValue). */
export interface KeyValueOptions {
  /** An entry not written for this long is dropped (the bucket's max age; fixed when the bucket is created). */
  maxAgeMs: number;
}

export interface KeyValueEntry {
  value: string;
  /** Changes on every write; what compareAndSet compares. */
  revision: number;
}

/**
 * Short-lived state every replica shares (counters, not records): kept in the server's memory on NATS, so a
 * NATS restart empties it. Keys are what NATS allows, letters, digits and `-/_=.`, in both implementations.
 */
export interface KeyValue {
  /** The key's entry, or null when it has none (never written, or older than maxAgeMs). */
  get(key: string): Promise<KeyValueEntry | null>;
  /**
   * Writes `value` only if the key is still at `revision` (null: only if it has no entry). Resolves the new
   * revision, or null when another writer came first (read again and retry).
   */
  compareAndSet(key: string, value: string, revision: number | null): Promise<number | null>;
}

export interface Bus {
  /**
   * Ask a question. Throws AppError: "validation" (bad request, before sending), "timeout", "unavailable"
   * (nobody serves the subject), or the responder's own code and message.
   */
  request<E extends EndpointDef>(
    def: E,
    req: z.input<E["request"]>,
    opts?: RequestOptions,
  ): Promise<z.output<E["reply"]>>;
  /**
   * Ask a question and take the reply as the JSON text its responder wrote, validated there against `def.reply`
   * and not parsed here: for a caller that only hands it on (docs/decisions/0056-dashboard-spliced-from-replies.md).
   * Throws as `request` does.
   */
  requestJson<E extends EndpointDef>(def: E, req: z.input<E["request"]>, opts?: RequestOptions): Promise<string>;
  /** Answer def.subject in queue group def.service, so replicas share the load. */
  serve<E extends EndpointDef>(def: E, handler: EndpointHandler<E>): Responding;
  /** Store an event durably (resolves on the stream's ack); envelope.id de-duplicates within DUPLICATE_WINDOW_MS. */
  publish(subject: string, envelope: EventEnvelope, opts?: { headers?: Record<string, string> }): Promise<void>;
  /** Consume def.subject through durable `durable`; replicas using the same durable share the events. */
  subscribe<E extends EventDef>(
    def: E,
    durable: string,
    handler: EventHandler<E>,
    opts?: EventSubscribeOptions<E>,
  ): Promise<Subscription>;
  /**
   * Make sure the streams for these events exist (adds subjects, never removes any). A service given a shared
   * bus calls this for the events it publishes; subscribe does it for its own event.
   */
  ensureStreams(defs: readonly EventDef[]): Promise<void>;
  /**
   * A key-value bucket shared by every replica on this bus, created on first use. Throws AppError
   * "unavailable" (here or in its operations) when NATS cannot be reached.
   */
  keyValue(bucket: string, options: KeyValueOptions): Promise<KeyValue>;
  /**
   * A message for every listener of `subject` on every replica, not stored (NATS core publish): a hint such as a
   * cache invalidation, lost by a listener that is not connected. Resolves once the server has it (flushed).
   */
  broadcast(subject: string, data: string): Promise<void>;
  /**
   * Hears broadcasts on `subject`. `onLive(true)` once the server has confirmed the subscription, `onLive(false)`
   * as soon as the connection drops (broadcasts are being missed), `onLive(true)` again once it is back and
   * confirmed: a listener relying on hearing every broadcast trusts nothing it learnt while not live.
   */
  listen(subject: string, handler: (data: string) => void, onLive: (live: boolean) => void): Promise<Listening>;
  /** Readiness: throws when the bus cannot be used. */
  ping(): Promise<void>;
  /** Stop serving and consuming, let in-flight work finish, disconnect. */
  close(): Promise<void>;
}

/** An outbox row as the relay sees it; packages/db implements the source. */
export interface OutboxRow {
  id: string;
  subject: string;
  payload: unknown;
  /** The trace context of the write that made the row (absent on rows older than the column). */
  headers?: Record<string, string> | null;
}

/** What became of a claim: rows the stream acknowledged, rows whose publish failed, rows not tried. */
export interface OutboxOutcome {
  sent: string[];
  failed: string[];
  untried: string[];
}

export interface OutboxSource {
  /**
   * How long a claim keeps other relays off its rows. A relay that dies holding a claim delays those rows by
   * at most this; one that is alive must settle its claim well within it.
   */
  readonly leaseMs: number;
  /**
   * Claims up to `limit` unsent, unclaimed rows, oldest first, and commits the claim before resolving, so the
   * rows are published outside any transaction.
   */
  claim(limit: number): Promise<OutboxRow[]>;
  /** Ends a claim: `sent` rows are marked sent, `failed` ones count an attempt; all are claimable again. */
  settle(outcome: OutboxOutcome): Promise<void>;
  pending(): Promise<number>;
}
