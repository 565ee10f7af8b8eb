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

/**
 * An import's batches of weigh-ins, measurements and body fat (the imports service): stored once per (account, externalId), source `import`. The key is
 * prefixed so an import's ids never meet a scale's (docs/decisions/0076-imports-as-background-jobs.md).
 */
export const serveWeightImport = ({ bus, store, relay }: ServiceContext<Store>) => [
  bus.serve(bodyMetricsBus.importWeighIns, async ({ accountId, rows }) => {
    const stored = await store.importReadings(
      accountId,
      rows.map(({ id, externalId, ts, weightKg, bodyFatPct }) => ({
        id, accountId, ts, weightKg, bodyFatPct, note: null, source: "import" as const, externalId: `import:${externalId}`,
      })),
    );
    relay.kick();
    return { stored };
  }),
  bus.serve(bodyMetricsBus.removeImportedWeighIns, async ({ accountId, ids }) => {
    const removed = await store.removeImportedReadings(accountId, ids);
    if (removed) relay.kick();
    return { removed };
  }),
  // Measurements carry no events: nothing keeps a copy of them.
  bus.serve(bodyMetricsBus.importMeasurements, async ({ accountId, rows }) => ({
    stored: await store.importMeasurements(accountId, rows.map((row) => ({ ...row, accountId, externalId: `import:${row.externalId}` }))),
  })),
  bus.serve(bodyMetricsBus.removeImportedMeasurements, async ({ accountId, ids }) => ({
    removed: await store.removeImportedMeasurements(accountId, ids),
  })),
  // Body fat changes what a weigh-in shows, not what its events carry (the weight): none either.
  bus.serve(bodyMetricsBus.importBodyFat, async ({ accountId, rows }) => ({
    stored: await store.importBodyFat(accountId, rows.map((row) => ({ ...row, externalId: `import:${row.externalId}` }))),
  })),
  bus.serve(bodyMetricsBus.removeImportedBodyFat, async ({ accountId, ids }) => ({
    removed: await store.removeImportedBodyFat(accountId, ids),
  })),
];
