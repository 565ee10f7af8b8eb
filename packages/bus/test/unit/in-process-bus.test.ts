import { createInProcessBus, type Bus } from "../../src/index.ts";
import { describeBusContract } from "../bus-contract.ts";

// Replicas in one process share one bus instance, so every `open` returns the same one.
describeBusContract("in-process bus", (logger) => {
  let bus: Bus | undefined;
  return {
    async open(streams) {
      bus ??= createInProcessBus({ logger });
      await bus.ensureStreams(streams);
      return bus;
    },
    close: async () => bus?.close(),
  };
});
