import type { EventDef } from "@fit/contracts";
import { createInProcessBus } from "./memory/in-process-bus.ts";
import type { NatsBusConfig, NatsCredentials } from "./nats/nats-bus.ts";
import { withNamespace } from "./namespace.ts";
import type { Bus, Logger } from "./types.ts";

export interface BusConfig {
  /** Unset: the in-process bus (docs/decisions/0003-embedded-pglite-and-in-process-bus.md). */
  natsUrl?: string | undefined;
  /** The service name; names the NATS connection. */
  name: string;
  logger: Logger;
  /** Events the service publishes or consumes; their streams are ensured. */
  streams: readonly EventDef[];
  /**
   * An existing bus to join instead of making one: in the all-in-one process the launcher creates one
   * in-process bus and hands it to every service. Whoever created a bus closes it.
   */
  bus?: Bus;
  /** Prefix of every subject and stream (NATS only), to share one server between deployments. */
  namespace?: string | undefined;
  /** NATS only: user, password, certificate authority and inbox prefix; unset, an open server. */
  credentials?: NatsCredentials | undefined;
}

/**
 * The NATS bus, its client loaded on first use: evaluating it is ~0.1 s of the embedded process's start, which
 * never connects (docs/performance.md, "Embedded start").
 */
export const connectNatsBus = async (config: NatsBusConfig): Promise<Bus> => (await import("./nats/nats-bus.ts")).connectNatsBus(config);

export const createBus = async (config: BusConfig): Promise<Bus> => {
  if (config.bus) {
    await config.bus.ensureStreams(config.streams);
    return config.bus;
  }
  if (config.natsUrl) {
    const nats = await connectNatsBus({ url: config.natsUrl, name: config.name, logger: config.logger, credentials: config.credentials });
    const bus = config.namespace ? withNamespace(nats, config.namespace) : nats;
    await bus.ensureStreams(config.streams);
    return bus;
  }
  return createInProcessBus({ logger: config.logger, streams: config.streams });
};
