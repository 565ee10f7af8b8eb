// The built-in estimator when nutrition, whose food database it reads, does not answer: the coach built as it
// runs (its own PostgreSQL schema, a bus with no nutrition on it) fails the estimate with the bus's error, which
// the describe routes answer in the envelope like any upstream failure; no number is guessed. A chat still answers.
import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createBus, type Bus } from "@fit/bus";
import { AppError, coachBus } from "@fit/contracts";
import { createTestDatabase } from "@fit/testing";
import { buildCoach } from "../../src/app.ts";
import { loadCoachConfig } from "../../src/config.ts";

const silent = { debug() {}, info() {}, warn() {}, error() {} };
let testDb: Awaited<ReturnType<typeof createTestDatabase>>;
let bus: Bus;
let coach: Awaited<ReturnType<typeof buildCoach>>;

beforeAll(async () => {
  testDb = await createTestDatabase(inject("databaseUrl"));
  bus = await createBus({ natsUrl: undefined, name: "coach-test", logger: silent, streams: [] });
  const config = loadCoachConfig({ DATABASE_URL: testDb.url, INTERNAL_ASSERTION_SECRET: randomBytes(32).toString("hex"), LOG_LEVEL: "silent" });
  coach = await buildCoach({ config, bus });
});
afterAll(async () => {
  await coach?.close();
  await bus?.close();
  await testDb?.drop();
});

describe("estimating food without the food database", () => {
  it("fails with the bus's error, with no estimate", async () => {
    const asked = bus.request(coachBus.estimateFoods, { accountId: randomUUID(), text: "two eggs and a slice of toast" }, { timeoutMs: 5000 });
    await expect(asked).rejects.toBeInstanceOf(AppError);
    await expect(asked).rejects.toMatchObject({ code: "unavailable", message: expect.stringContaining("nutrition.foods.match") });
  });

  it("still answers in a chat, saying that no food was estimated and why", async () => {
    const reply = await bus.request(
      coachBus.ask,
      { accountId: randomUUID(), date: "2026-11-28", messages: [{ role: "user", content: "Are two eggs a good breakfast?" }] },
      { timeoutMs: 20_000 },
    );
    expect(reply.reply).toContain("The food database did not answer, so no food in your message was estimated");
    expect(reply.reply).not.toMatch(/Estimate \(/);
  });

  it("still answers text naming no food without asking it", async () => {
    expect(await bus.request(coachBus.estimateFoods, { accountId: randomUUID(), text: "2 cups" }, { timeoutMs: 5000 })).toEqual({ items: [], unrecognized: ["2 cups"] });
  });
});
