import { randomUUID } from "node:crypto";
import { bodyMetricsBus } from "@fit/contracts";
import type { ServiceContext } from "@fit/service-kit";
import { ingestKey } from "../domain/ingest.ts";
import type { Store } from "../store/store.ts";

/** Scale readings the gateway resolved to an account (POST /api/ingest/weight); stored once, source `scale`. */
export const serveWeightIngest = ({ bus, store, relay }: ServiceContext<Store>) =>
  bus.serve(bodyMetricsBus.ingestWeight, async ({ accountId, weightKg, bodyFatPct, ts, externalId }) => {
    const stored = await store.ingestReading({
      id: randomUUID(), accountId, ts, weightKg, bodyFatPct, note: null, source: "scale", externalId: ingestKey(externalId, ts),
    });
    if (stored) relay.kick();
    return { stored };
  });
