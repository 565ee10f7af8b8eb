import { lazyInstruments } from "@fit/telemetry";
import type { OutboxSource } from "@fit/db";
import type { FastifyInstance } from "fastify";

interface WatchedOutbox {
  service: string;
  source: OutboxSource;
}

const outboxes = new Set<WatchedOutbox>();

const instruments = lazyInstruments("@fit/service-kit", (meter) => {
  const pending = meter.createObservableGauge("fit.outbox.pending", { description: "Outbox rows committed and not yet published", unit: "{event}" });
  const oldestAge = meter.createObservableGauge("fit.outbox.oldest_age", { description: "Age of the oldest unpublished outbox row (0 when none)", unit: "s" });
  // Read at collection (a scrape), one query per service; an unreachable database leaves its service out.
  meter.addBatchObservableCallback(
    async (result) => {
      await Promise.all(
        [...outboxes].map(async ({ service, source }) => {
          const backlog = await source.backlog().catch(() => undefined);
          if (!backlog) return;
          result.observe(pending, backlog.pending, { "fit.service": service });
          result.observe(oldestAge, backlog.oldestAgeMs / 1_000, { "fit.service": service });
        }),
      );
    },
    [pending, oldestAge],
  );
  return {
    requestDuration: meter.createHistogram("http.server.request.duration", { description: "HTTP requests by the route Fastify matched", unit: "s" }),
  };
});

/**
 * Records every request's duration by method, matched route (not the URL, which would make a series per id)
 * and status; rate and errors are the histogram's counts. Without a meter provider the record is a no-op.
 */
export const recordRequests = (app: FastifyInstance, service: string): void => {
  // A callback hook, not an async one: no promise per request for what is a no-op when metrics are off.
  app.addHook("onResponse", (request, reply, done) => {
    const status = reply.statusCode;
    instruments().requestDuration.record(reply.elapsedTime / 1_000, {
      "fit.service": service,
      "http.request.method": request.method,
      "http.route": request.routeOptions.url ?? "unmatched",
      "http.response.status_code": status,
      ...(status >= 500 ? { "error.type": String(status) } : {}),
    });
    done();
  });
};

/** Reports a service's outbox backlog at each collection until the returned function is called. */
export const watchOutbox = (service: string, source: OutboxSource): (() => void) => {
  const watched = { service, source };
  instruments();
  outboxes.add(watched);
  return () => void outboxes.delete(watched);
};
