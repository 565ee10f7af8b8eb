import type { EndpointDef, EventDef } from "@fit/contracts";
import type { Bus } from "./types.ts";

/**
 * Keeps several deployments (or parallel test runs) apart on one NATS server: every subject gets a prefix and
 * every stream and key-value bucket a name of its own, while services, outbox rows and envelopes keep the contracts' plain subjects.
 */
export const withNamespace = (bus: Bus, namespace: string): Bus => {
  const subject = (s: string) => `${namespace}.${s}`;
  const endpoint = <E extends EndpointDef>(def: E): E => ({ ...def, subject: subject(def.subject) });
  const event = <E extends EventDef>(def: E): E => ({ ...def, subject: subject(def.subject), stream: `${namespace}_${def.stream}` });
  return {
    request: (def, req, opts) => bus.request(endpoint(def), req, opts),
    requestJson: (def, req, opts) => bus.requestJson(endpoint(def), req, opts),
    serve: (def, handler) => bus.serve(endpoint(def), handler),
    publish: (s, envelope, opts) => bus.publish(subject(s), envelope, opts),
    subscribe: (def, durable, handler, opts) => bus.subscribe(event(def), durable, handler, opts),
    ensureStreams: (defs) => bus.ensureStreams(defs.map(event)),
    broadcast: (s, data) => bus.broadcast(subject(s), data),
    listen: (s, handler, onLive) => bus.listen(subject(s), handler, onLive),
    keyValue: (bucket, options) => bus.keyValue(`${namespace}_${bucket}`, options),
    ping: () => bus.ping(),
    close: () => bus.close(),
  };
};
