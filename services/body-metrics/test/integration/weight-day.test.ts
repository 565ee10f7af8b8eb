import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openReplicaDatabases } from "@fit/testing";
import { bodyMetricsDatabase } from "../../src/app.ts";
import { endOfDay, summarizeWeights, summaryOf, type Reading } from "../../src/domain/weight-summary.ts";
import { createStore, type Store } from "../../src/store/store.ts";

// Two replicas of body-metrics on one PostgreSQL database, each with its own pool, as two processes would have:
// the daily roll-up's triggers run in many sessions at once only here (PGlite has one).
let databases: Awaited<ReturnType<typeof openReplicaDatabases>>;
let replicas: Store[];

beforeAll(async () => {
  databases = await openReplicaDatabases(bodyMetricsDatabase, 2, 8);
  replicas = databases.replicas.map((db) => createStore(db));
});
afterAll(async () => {
  await Promise.all(replicas.map((store) => store.close()));
  await databases.close();
});

const DAY = "2026-11-20";
const dayEnd = endOfDay(DAY);

describe("the daily weight roll-up under concurrent writes", () => {
  it("counts every reading added and none deleted when both happen to one day at once on two replicas, while reads roll the range forward", async () => {
    const accountId = randomUUID();
    const stored = new Map<string, Reading>();
    const write = (i: number) => {
      const id = randomUUID();
      const reading: Reading = { ts: dayEnd - 1 - i * 60_000, weightKg: 80 + (i % 9) * 0.25, bodyFatPct: null, note: null };
      return replicas[i % 2]!.addReading({ ...reading, id, accountId, source: "scale" }).then(() => stored.set(id, reading));
    };
    await Promise.all(Array.from({ length: 100 }, (_, i) => write(i)));
    const doomed = [...stored.keys()].filter((_, i) => i % 2 === 0);

    await Promise.all([
      ...Array.from({ length: 10 }, (_, i) => replicas[i % 2]!.weightAggregates(accountId, dayEnd)),
      ...Array.from({ length: 200 }, (_, i) => write(100 + i)),
      ...doomed.map((id, i) => replicas[i % 2]!.deleteReading(accountId, id).then((deleted) => deleted && stored.delete(id))),
    ]);

    expect(stored.size).toBe(250);
    for (const replica of replicas) {
      const aggregates = await replica.weightAggregates(accountId, dayEnd);
      expect(aggregates && summaryOf(aggregates)).toEqual(summarizeWeights([...stored.values()], dayEnd));
      expect(aggregates?.days).toEqual([expect.objectContaining({ count: 250 })]);
    }
  });
});
