export type {
  BatchHandler,
  Bus,
  Delivery,
  EndpointHandler,
  EventHandler,
  EventSubscribeOptions,
  KeyValue,
  KeyValueEntry,
  KeyValueOptions,
  Listening,
  Logger,
  OutboxOutcome,
  OutboxRow,
  OutboxSource,
  RequestOptions,
  Responding,
  ServeContext,
  SubscribeOptions,
  Subscription,
} from "./types.ts";
export { connectNatsBus, createBus, type BusConfig } from "./create-bus.ts";
export type { NatsBusConfig, NatsCredentials } from "./nats/nats-bus.ts";
export { createInProcessBus, type InProcessBusConfig } from "./memory/in-process-bus.ts";
export { createMemoryKeyValue } from "./memory/key-value.ts";
export { startOutboxRelay, type OutboxRelay, type OutboxRelayOptions } from "./outbox-relay.ts";
export { errorHeader } from "./reply-codec.ts";
export { DUPLICATE_WINDOW_MS, subscribeDefaults } from "./event-codec.ts";
export { withNamespace } from "./namespace.ts";
export { inboxPrefixOf, natsAuthorization, natsPasswordVariable } from "./nats/permissions.ts";
