import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { allEvents, nutritionItemEvents } from "@fit/contracts";
import { createInProcessBus, type Logger } from "@fit/bus";
import { signAssertion } from "@fit/service-kit";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildNutrition } from "../../src/app.ts";
import { loadNutritionConfig } from "../../src/config.ts";
import type * as StoreModule from "../../src/store/store.ts";
import { command } from "../support/projection-commands.ts";
import { ProjectionModel } from "../support/projection-model.ts";
import { recordingBus } from "../support/recording-bus.ts";

type Store = StoreModule.Store;

/*
 * Whatever the order and multiplicity of item events, the projection ends as the sum of the current items
 * (docs/security.md, "Every acknowledged event is applied once"). The real service (buildNutrition on PGlite +
 * the in-process bus) is driven over HTTP; the projection sees its own events plus duplicated and reordered ones.
 * Two seams, neither changing behaviour:
 *  - the bus handed to the service records what the relay publishes and what has been handled, so a check never
 *    runs while events are still in flight;
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
const silent: Logger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

let dataDir: string;
let app: Awaited<ReturnType<typeof buildNutrition>>;
let recorder: ReturnType<typeof recordingBus>;
let secret: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "nutrition-projection-"));
  secret = randomUUID() + randomUUID();
  const itemSubjects = Object.values(nutritionItemEvents).map((def) => def.subject);
  recorder = recordingBus(createInProcessBus({ logger: silent, streams: allEvents }), itemSubjects);
  const config = loadNutritionConfig({ DATA_DIR: dataDir, INTERNAL_ASSERTION_SECRET: secret, LOG_LEVEL: "silent" });
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

/** Resolves once the outbox is empty and every event that went through the bus has been handled at least once. */
const settle = () =>
  vi.waitFor(
    async () => {
      const unsent = await store().outbox.pending();
      const unhandled = recorder.published.filter((p) => !recorder.handled.has(p.envelope.id)).length;
      if (unsent > 0 || unhandled > 0) throw new Error(`${unsent} outbox rows unsent, ${unhandled} events unhandled`);
    },
    { timeout: 15_000, interval: 20 },
  );

describe("the daily-total projection", () => {
  it(
    "ends as the sum of each day's current items after any writes, duplicated and reordered events",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(command, { minLength: 1, maxLength: 25 }),
          fc.array(fc.nat(), { maxLength: 12 }),
          async (commands, finalReplays) => {
            const owners = [
              { accountId: randomUUID(), model: new ProjectionModel() },
              { accountId: randomUUID(), model: new ProjectionModel() },
            ] as const;
            const owner = (who: number) => owners[who === 0 ? 0 : 1];
            const accounts: string[] = owners.map((o) => o.accountId);
            const ids: string[] = []; // every item created in this run, deleted ones included
            const pickEvent = (pick: number) => {
              const events = recorder.published.filter((p) => accounts.includes(p.envelope.data.accountId));
              return events[pick % Math.max(events.length, 1)];
            };
            const republish = async (pick: number) => {
              const event = pickEvent(pick);
              if (event) await recorder.bus.publish(event.subject, { ...event.envelope, id: randomUUID() });
            };
            const shownTotals = async (who: number) => (await call(owner(who).accountId, "GET", "/api/nutrition")).body;

            /** With every event handled: stored totals are the sums of the current items, and nothing is pending. */
            const checkProjection = async () => {
              await settle();
              for (const who of [0, 1]) {
                const { accountId, model } = owner(who);
                const { stored, fresh } = await store().recentTotals(accountId, 60);
                expect([...fresh.keys()], "no day is left pending once its events are handled").toEqual([]);
                expect(stored, "stored totals equal the sums of the current items, none for empty days").toEqual(model.totals());
                expect(await shownTotals(who)).toEqual(
                  model.totals().map((t) => ({ ...t, userEmail: `${accountId}@example.com`, hitProtein: false, adherence: null })),
                );
              }
              const mismatched = (await store().mismatchedDays("0000-01-01")).filter((d) => accounts.includes(d.accountId));
              expect(mismatched).toEqual([]);
            };

            for (const c of commands) {
              if (c.kind === "log") {
                const date = DAYS[c.day] as string;
                const res = await call(owner(c.who).accountId, "POST", "/api/nutrition/items", { date, name: "food", kcal: c.kcal, proteinG: c.proteinG });
                expect(res.status).toBe(200);
                owner(c.who).model.log(res.body.id, { date, kcal: c.kcal, proteinG: c.proteinG });
                ids.push(res.body.id);
              } else if (c.kind === "edit" || c.kind === "delete") {
                const id = ids[c.pick % Math.max(ids.length, 1)];
                if (id === undefined) continue;
                const { accountId, model } = owner(c.who);
                // An item of the other account, or a deleted one, must answer 404 and change nothing.
                const reachable = model.has(id);
                if (c.kind === "delete") {
                  const res = await call(accountId, "DELETE", `/api/nutrition/items/${id}`);
                  expect(res.status).toBe(reachable ? 200 : 404);
                  model.delete(id);
                } else {
                  const { day: d, ...rest } = c.patch;
                  const patch = { ...rest, ...(d === undefined ? {} : { date: DAYS[d] }) };
                  const res = await call(accountId, "PATCH", `/api/nutrition/items/${id}`, patch);
                  expect(res.status).toBe(reachable ? 200 : 404);
                  model.edit(id, patch);
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
                for (const who of [0, 1]) {
                  expect(await shownTotals(who)).toEqual(owner(who).model.totals().map((total) => expect.objectContaining(total)));
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
