import { afterEach, beforeEach, describe } from "vitest";
import { batchContract } from "./contract/batches.ts";
import { broadcastContract } from "./contract/broadcast.ts";
import { eventFailureContract } from "./contract/event-failures.ts";
import { eventContract } from "./contract/events.ts";
import { keyValueContract } from "./contract/key-value.ts";
import { metricsContract } from "./contract/metrics.ts";
import { relayContract } from "./contract/relay.ts";
import { requestReplyContract } from "./contract/request-reply.ts";
import { tracingContract } from "./contract/tracing.ts";
import type { Logger } from "../src/index.ts";
import { captureLogger, uniqueNames, type BusHarness, type LogEntry, type MakeHarness } from "./support.ts";

/** What each contract test gets fresh: its own harness, log and names. */
export interface ContractContext {
  harness: BusHarness;
  logger: Logger;
  log: LogEntry[];
  names: ReturnType<typeof uniqueNames>;
}

/**
 * The one behaviour both buses must have. Each tier runs it against its implementation, so a rule that holds
 * in memory but not on NATS (or the other way round) fails a test.
 */
export const describeBusContract = (name: string, makeHarness: MakeHarness): void => {
  describe(name, () => {
    const ctx = {} as ContractContext;
    beforeEach(() => {
      const { logger, entries } = captureLogger();
      ctx.harness = makeHarness(logger);
      ctx.logger = logger;
      ctx.log = entries;
      ctx.names = uniqueNames();
    });
    afterEach(() => ctx.harness.close());

    describe("request/reply", () => requestReplyContract(ctx));
    describe("events", () => eventContract(ctx));
    describe("event batches", () => batchContract(ctx));
    describe("event failures", () => eventFailureContract(ctx));
    describe("outbox relay", () => relayContract(ctx));
    describe("tracing", () => tracingContract(ctx));
    describe("metrics", () => metricsContract(ctx));
    describe("key-value", () => keyValueContract(ctx));
    describe("broadcast", () => broadcastContract(ctx));
  });
};
