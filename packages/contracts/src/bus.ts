import { context, propagation } from "@opentelemetry/api";
import { z } from "zod";

/**
 * A question one service answers for others over the bus (NATS request/reply, queue group = service name).
 * Both sides parse with these schemas.
 */
export interface EndpointDef<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType> {
  readonly subject: string;
  /** The service that answers; also the queue group its replicas share. */
  readonly service: string;
  readonly request: Req;
  readonly reply: Res;
}

/** A fact that happened, published from a service's outbox to JetStream stream `stream`. */
export interface EventDef<D extends z.ZodType = z.ZodType> {
  readonly subject: string;
  readonly stream: string;
  readonly data: D;
}

export const defineEndpoint = <Req extends z.ZodType, Res extends z.ZodType>(
  def: EndpointDef<Req, Res>,
): EndpointDef<Req, Res> => def;

export const defineEvent = <D extends z.ZodType>(def: EventDef<D>): EventDef<D> => def;

/** The envelope every event travels in: past-tense `type` (= subject), an id for de-duplication, a time. */
export const eventEnvelope = <D extends z.ZodType>(data: D) =>
  z.object({
    id: z.uuid(),
    type: z.string(),
    occurredAt: z.iso.datetime(),
    data,
  });

export interface EventEnvelope<T = unknown> {
  id: string;
  type: string;
  occurredAt: string;
  data: T;
}

export type RequestOf<E> = E extends EndpointDef<infer Req, z.ZodType> ? z.input<Req> : never;
export type ReplyOf<E> = E extends EndpointDef<z.ZodType, infer Res> ? z.output<Res> : never;
export type DataOf<E> = E extends EventDef<infer D> ? z.output<D> : never;

/**
 * A new event of `def` with a fresh id, ready to be written to the outbox in the same transaction as its change.
 * `headers` hold the writer's trace context (empty without a tracing SDK), so the relay publishes the event
 * inside the trace of the write that caused it.
 */
export const outboxRow = <D extends z.ZodType>(def: EventDef<D>, data: z.input<D>) => {
  const envelope: EventEnvelope<z.output<D>> = {
    id: crypto.randomUUID(),
    type: def.subject,
    occurredAt: new Date().toISOString(),
    data: def.data.parse(data),
  };
  const headers: Record<string, string> = {};
  propagation.inject(context.active(), headers);
  return { id: envelope.id, subject: def.subject, payload: envelope as object, headers };
};
