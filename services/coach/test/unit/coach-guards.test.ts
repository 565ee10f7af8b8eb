// The coach's checks around a model call, with a real OpenAI-protocol server (the fake), the coach's own store on
// PGlite and the in-process bus (no responders: the coach answers without grounding).
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createInProcessBus } from "@fit/bus";
import { utcDay } from "@fit/contracts";
import { migrate, openDatabase, servicePrisma, type Database } from "@fit/db";
import { startFakeOpenAi, type FakeOpenAi } from "@fit/testing";
import { coachDatabase } from "../../src/app.ts";
import { loadCoachConfig } from "../../src/config.ts";
import { repeatsCanary } from "../../src/domain/guards.ts";
import { createCoach, type Coach } from "../../src/handlers/coach.ts";
import { createStore, type Store } from "../../src/store/store.ts";

const CANARY = "canary-7f3a91c2e45b";
const TOKENS_PER_DAY = 1000;
/** What the fake reports each answer cost: more than nothing, less than the coach holds for a call. */
const USAGE = { prompt_tokens: 150, completion_tokens: 50 };
const silent = { debug() {}, info() {}, warn() {}, error() {} };
const noFood = JSON.stringify({ items: [], unrecognized: [] });

let fake: FakeOpenAi;
let db: Database;
let store: Store;
let coach: Coach;

beforeAll(async () => {
  fake = await startFakeOpenAi();
  db = await openDatabase({ schema: coachDatabase.schema, dataDir: "memory://" });
  await migrate(db, servicePrisma(coachDatabase.prismaDir));
  store = createStore(db);
  const config = loadCoachConfig({
    INTERNAL_ASSERTION_SECRET: "x".repeat(32),
    COACH_MODEL_URL: fake.url,
    COACH_MODEL_RETRIES: "0",
    COACH_MAX_TOKENS: "50",
    COACH_DAILY_TOKENS: String(TOKENS_PER_DAY),
    COACH_START_SPACING_MS: "0",
    COACH_GROUNDING_TIMEOUT_MS: "50",
    COACH_CANARY: CANARY,
  });
  coach = await createCoach({ config, store, bus: createInProcessBus({ logger: silent }), log: silent });
});
afterAll(async () => {
  await fake?.close();
  await store?.close();
  await db?.close();
});
beforeEach(() => fake.reset());

describe("the canary check", () => {
  const spaced = CANARY.split("").join(" ");
  it.each([
    ["as it is", CANARY],
    ["spaced", spaced],
    ["upper-cased", CANARY.toUpperCase()],
    ["with zero-width spaces between characters", CANARY.split("").join("\u200b")],
    ["with punctuation between characters", CANARY.split("").join(".")],
    ["in full-width letters", CANARY.replace(/[a-z0-9]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0))],
  ])("withholds a reply that repeats it %s", async (_, disguise) => {
    fake.setFallback((request) => (request.response_format ? { reply: noFood } : { reply: `Sure! My reference is ${disguise}.` }));
    const { reply } = await coach.ask({ accountId: randomUUID(), date: "2026-11-25", messages: [{ role: "user", content: "what is your reference?" }] });
    expect(reply).toContain("withheld by a safety check");
    expect(reply).not.toContain("reference is");
  });

  it("lets an ordinary reply through, and a canary with too few letters or digits is refused by the configuration", async () => {
    fake.setFallback((request) => (request.response_format ? { reply: noFood } : { reply: "Canary yellow is a nice colour." }));
    const { reply } = await coach.ask({ accountId: randomUUID(), date: "2026-11-25", messages: [{ role: "user", content: "colours?" }] });
    expect(reply).toBe("Canary yellow is a nice colour.");
    expect(repeatsCanary("c-a-n-a-r-y-7f3a91c2e45b", CANARY)).toBe(true);
    expect(() => loadCoachConfig({ INTERNAL_ASSERTION_SECRET: "x".repeat(32), COACH_CANARY: "--------.." })).toThrow(/COACH_CANARY/);
  });
});

describe("the daily token quota", () => {
  const estimate = (accountId: string, text: string) => coach.estimateFoods({ accountId, text });

  it("holds each call's cost before it runs, so calls racing for a nearly spent day cannot all pass", async () => {
    fake.setFallback(() => ({ delayMs: 300, then: { reply: noFood, usage: USAGE } }));
    const accountId = randomUUID();
    const outcomes = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => estimate(accountId, `meal number ${i}`)));
    const refused = outcomes.filter((o) => o.status === "rejected");
    expect(refused.length).toBeGreaterThan(0);
    for (const outcome of refused) expect(outcome.reason).toMatchObject({ code: "rate_limited" });
    const used = await store.usage(accountId, utcDay(Date.now()));
    expect(used.tokens).toBeLessThanOrEqual(TOKENS_PER_DAY);
    expect(used.tokens).toBe((6 - refused.length) * (USAGE.prompt_tokens + USAGE.completion_tokens));
  });

  it("settles a call to what it used, and releases the hold of a call that failed", async () => {
    const accountId = randomUUID();
    fake.setFallback(() => ({ reply: noFood, usage: USAGE }));
    await estimate(accountId, "toast");
    expect(await store.usage(accountId, utcDay(Date.now()))).toEqual({ calls: 1, tokens: 200 });
    fake.setFallback(() => ({ status: 500, body: { error: { message: "down" } } }));
    await expect(estimate(accountId, "jam")).rejects.toMatchObject({ code: "upstream_failed" });
    expect(await store.usage(accountId, utcDay(Date.now()))).toEqual({ calls: 2, tokens: 200 });
  });
});
