import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { allEvents, nutritionEvents, type EventEnvelope } from "@fit/contracts";
import { createInProcessBus, type Bus, type Logger } from "@fit/bus";
import { loadConfig, signAssertion } from "@fit/service-kit";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildNutrition } from "../../src/app.ts";
import { nutritionEnv } from "../../src/config.ts";
import type * as StoreModule from "../../src/store/store.ts";

type Store = StoreModule.Store;

/*
 * security.md 22: whatever the order and multiplicity of item events, the projection ends as the sum of the
 * current items. The real service (buildNutrition on PGlite + the in-process bus) is driven over HTTP; the
 * projection sees its own events plus duplicated and reordered ones. Two seams, neither changing behaviour:
 *  - the bus handed to the service is wrapped, to record what the relay publishes and to know when every
 *    event has been handled (so the check never runs while events are still in flight);
 *  - createStore is wrapped to keep a reference to the service's own store, so the STORED daily_total rows
 *    and pending days can be read: GET /api/nutrition overlays pending days with fresh sums, so on its own it
 *    would hide a wrong stored total.
 */
const seam = vi.hoisted(() => ({ store: undefined as Store | undefined }));
vi.mock("../../src/store/store.ts", async (importOriginal) => {
  const original = await importOriginal<typeof StoreModule>();
  return {
    ...original,
    createStore: (...args: Parameters<typeof original.createStore>) => (seam.store = original.createStore(...args)),
  };
});

const DAYS = ["2026-03-01", "2026-03-02", "2026-03-03"] as const;
const itemSubjects: readonly string[] = Object.values(nutritionEvents).map((def) => def.subject);
const silent: Logger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

type ItemData = { accountId: string; itemId: string; date: string; previousDate?: string | null };
interface Published {
  subject: string;
  envelope: EventEnvelope<ItemData>;
}

/** The bus the service gets: the in-process bus, plus a record of what went through it. */
const recordingBus = (inner: Bus) => {
  const published: Published[] = [];
  const handled = new Map<string, number>();
  const bus: Bus = {
    request: (def, req, opts) => inner.request(def, req, opts),
    serve: (def, handler) => inner.serve(def, handler),
    publish: async (subject, envelope, opts) => {
      await inner.publish(subject, envelope, opts);
      if (itemSubjects.includes(subject)) published.push({ subject, envelope: envelope as EventEnvelope<ItemData> });
    },
    subscribe: (def, durable, handler, opts) =>
      inner.subscribe(
        def,
        durable,
        async (event) => {
          await handler(event);
          handled.set(event.id, (handled.get(event.id) ?? 0) + 1);
        },
        opts,
      ),
    ensureStreams: (defs) => inner.ensureStreams(defs),
    ping: () => inner.ping(),
    close: () => inner.close(),
  };
  return { bus, published, handled };
};

// ---- the commands a run is made of ----
const kcal = fc.integer({ min: 0, max: 3000 });
// Whole and half grams: exactly representable, so sums compare exactly whatever order they are added in.
const protein = fc.integer({ min: 0, max: 400 }).map((halves) => halves / 2);
const who = fc.constantFrom(0, 1);
const day = fc.constantFrom(0, 1, 2);

type Command =
  | { kind: "log"; who: number; day: number; kcal: number; proteinG: number }
  | { kind: "edit"; who: number; pick: number; patch: { kcal?: number; proteinG?: number; day?: number } }
  | { kind: "delete"; who: number; pick: number }
  /** An already published event delivered again through the bus (new message id, so the bus keeps it). */
  | { kind: "republish"; pick: number }
  /** An already published event processed again with its own id, as a redelivery by the server would be. */
  | { kind: "redeliver"; pick: number }
  /** Let every event so far be handled, then check the stored projection (not only at the end). */
  | { kind: "settle" };

const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("log" as const), who, day, kcal, proteinG: protein }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("edit" as const),
      who,
      pick: fc.nat(),
      patch: fc.record({ kcal, proteinG: protein, day }, { requiredKeys: [] }).filter((p) => Object.keys(p).length > 0),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("delete" as const), who, pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("republish" as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("redeliver" as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.constant({ kind: "settle" as const }) },
);

let dataDir: string;
let app: Awaited<ReturnType<typeof buildNutrition>>;
let recorder: ReturnType<typeof recordingBus>;
let secret: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "nutrition-projection-"));
  secret = randomUUID() + randomUUID();
  recorder = recordingBus(createInProcessBus({ logger: silent, streams: allEvents }));
  const config = loadConfig(nutritionEnv, { DATA_DIR: dataDir, INTERNAL_ASSERTION_SECRET: secret, LOG_LEVEL: "silent" });
  app = await buildNutrition({ config, bus: recorder.bus });
});

afterAll(async () => {
  await app?.close();
  await recorder?.bus.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const store = (): Store => {
  if (!seam.store) throw new Error("the service did not create its store through createStore");
  return seam.store;
};

const call = async (accountId: string, method: "GET" | "POST" | "PATCH" | "DELETE", url: string, payload?: object) => {
  const assertion = await signAssertion(secret, { accountId, email: `${accountId}@example.com`, scopes: null });
  const response = await app.inject({ method, url, headers: { "x-fit-assertion": assertion }, ...(payload ? { payload } : {}) });
  return { status: response.statusCode, body: response.json() };
};

/** Waits until the outbox is empty and every event that went through the bus has been handled at least once. */
const settle = async () => {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const unhandled = recorder.published.filter((p) => !recorder.handled.has(p.envelope.id));
    if ((await store().outbox.pending()) === 0 && unhandled.length === 0) return;
    if (Date.now() > deadline) throw new Error(`events still unhandled after 15 s: ${unhandled.length}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

interface ModelItem {
  owner: number;
  date: string;
  kcal: number;
  proteinG: number;
}

const expectedTotals = (items: Map<string, ModelItem>, owner: number) => {
  const byDate = new Map<string, { date: string; kcal: number; proteinG: number }>();
  for (const item of items.values()) {
    if (item.owner !== owner) continue;
    const total = byDate.get(item.date) ?? { date: item.date, kcal: 0, proteinG: 0 };
    total.kcal += item.kcal;
    total.proteinG += item.proteinG;
    byDate.set(item.date, total);
  }
  return [...byDate.values()].sort((a, b) => (a.date < b.date ? 1 : -1));
};

describe("the daily-total projection", () => {
  it(
    "ends as the sum of each day's current items after any writes, duplicated and reordered events",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(command, { minLength: 1, maxLength: 25 }),
          fc.array(fc.nat(), { maxLength: 12 }),
          async (commands, finalReplays) => {
            const accounts: [string, string] = [randomUUID(), randomUUID()];
            const accountOf = (owner: number) => (owner === 0 ? accounts[0] : accounts[1]);
            const items = new Map<string, ModelItem>();
            const ids: string[] = []; // every item created in this run, deleted ones included
            const mine = () => recorder.published.filter((p) => accounts.includes(p.envelope.data.accountId));
            const pickEvent = (pick: number) => {
              const events = mine();
              return events[pick % Math.max(events.length, 1)];
            };
            const republish = async (pick: number) => {
              const event = pickEvent(pick);
              if (event) await recorder.bus.publish(event.subject, { ...event.envelope, id: randomUUID() });
            };
            const shownTotals = async (owner: number) => (await call(accountOf(owner), "GET", "/api/nutrition")).body;

            /** With every event handled: stored totals are the sums of the current items, and nothing is pending. */
            const checkProjection = async () => {
              await settle();
              for (const owner of [0, 1]) {
                const accountId = accountOf(owner);
                const expected = expectedTotals(items, owner);
                const { stored, fresh } = await store().recentTotals(accountId, 60);
                expect([...fresh.keys()], "no day is left pending once its events are handled").toEqual([]);
                expect(stored, "stored totals equal the sums of the current items, none for empty days").toEqual(expected);
                expect(await shownTotals(owner)).toEqual(
                  expected.map((t) => ({ ...t, userEmail: `${accountId}@example.com`, hitProtein: false, adherence: null })),
                );
              }
              const mismatched = (await store().mismatchedDays()).filter((d) => accounts.includes(d.accountId));
              expect(mismatched).toEqual([]);
            };

            for (const c of commands) {
              if (c.kind === "log") {
                const date = DAYS[c.day] as string;
                const res = await call(accountOf(c.who), "POST", "/api/nutrition/items", { date, name: "food", kcal: c.kcal, proteinG: c.proteinG });
                expect(res.status).toBe(200);
                items.set(res.body.id, { owner: c.who, date, kcal: c.kcal, proteinG: c.proteinG });
                ids.push(res.body.id);
              } else if (c.kind === "edit" || c.kind === "delete") {
                const id = ids[c.pick % Math.max(ids.length, 1)];
                if (id === undefined) continue;
                const item = items.get(id);
                // An item of the other account, or a deleted one, must answer 404 and change nothing.
                const reachable = item !== undefined && item.owner === c.who;
                if (c.kind === "delete") {
                  const res = await call(accountOf(c.who), "DELETE", `/api/nutrition/items/${id}`);
                  expect(res.status).toBe(reachable ? 200 : 404);
                  if (reachable) items.delete(id);
                } else {
                  const { day: d, ...rest } = c.patch;
                  const patch = { ...rest, ...(d === undefined ? {} : { date: DAYS[d] }) };
                  const res = await call(accountOf(c.who), "PATCH", `/api/nutrition/items/${id}`, patch);
                  expect(res.status).toBe(reachable ? 200 : 404);
                  if (reachable && item) items.set(id, { ...item, ...patch });
                }
              } else if (c.kind === "republish") {
                await republish(c.pick);
              } else if (c.kind === "redeliver") {
                const event = pickEvent(c.pick);
                if (!event) continue;
                const { accountId, date, previousDate } = event.envelope.data;
                // Exactly what the event handler does for another delivery of this envelope.
                await store().recomputeDay(accountId, date, event.envelope.id);
                if (previousDate) await store().recomputeDay(accountId, previousDate, event.envelope.id);
              } else {
                await checkProjection();
              }
              if (c.kind === "log" || c.kind === "edit" || c.kind === "delete") {
                // Read-your-writes: whatever the projection has applied so far, the API shows the current sums.
                for (const owner of [0, 1]) {
                  const shown = await shownTotals(owner);
                  expect(shown.map((t: { date: string; kcal: number; proteinG: number }) => ({ date: t.date, kcal: t.kcal, proteinG: t.proteinG })))
                    .toEqual(expectedTotals(items, owner));
                }
              }
            }

            await settle(); // the service's own events first, so the replays below come after them: reordered
            for (const pick of finalReplays) await republish(pick);
            await checkProjection();
          },
        ),
        { numRuns: 25 },
      );
    },
    180_000,
  );
});
