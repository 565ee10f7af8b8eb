import { afterAll, beforeAll, beforeEach, describe, expect, inject, it, onTestFinished } from "vitest";
import { startFakeOpenAi, type ChatRequest, type FakeBehaviour, type FakeOpenAi } from "@fit/testing";
import { dataOf, modelAnswers, requestKind } from "./support/coach-model-requests.ts";
import { client } from "./support/http.ts";
import { startSystem, type System } from "./support/system.ts";

const KEY = "sk-test-SECRET-123";
const MODEL = "fake-coach-model";
const CANARY = "canary-coach-model-test-4b1d9e";
const TIMEOUT_MS = 1500;
const DAY = "2026-03-10";
const REPLY = "Two slices fit today; add a salad.";

const modelEnv = (url: string, extra: Record<string, string> = {}) => ({
  COACH_MODEL_URL: url,
  COACH_MODEL_API_KEY: KEY,
  COACH_MODEL: MODEL,
  COACH_MODEL_TIMEOUT_MS: String(TIMEOUT_MS),
  COACH_MODEL_RETRIES: "0",
  COACH_CANARY: CANARY,
  ...extra,
});

let fake: FakeOpenAi;
let system: System;
// One replica that runs one call at a time with no queue, and allows two calls a day per account.
let tight: System;

const start = (env: Record<string, string>) => startSystem({ databaseUrl: inject("databaseUrl"), natsUrl: inject("natsUrl"), env });

beforeAll(async () => {
  fake = await startFakeOpenAi();
  [system, tight] = await Promise.all([
    start(modelEnv(fake.url)),
    start(modelEnv(fake.url, { COACH_CONCURRENCY: "1", COACH_QUEUE: "0", COACH_DAILY_CALLS: "2" })),
  ]);
});
afterAll(async () => {
  await Promise.all([system?.stop(), tight?.stop()]);
  await fake?.close();
});

/** Every test starts from an empty record; structured calls answer in format, chat as `chat` says. */
const answerChat = (chat: (request: ChatRequest) => FakeBehaviour) => fake.setFallback(modelAnswers(chat));
beforeEach(() => {
  fake.reset();
  answerChat(() => ({ reply: REPLY }));
});

const newApi = async (on = system) => client(on.url, (await on.account()).key);
const ask = (api: ReturnType<typeof client>, content: string) => api.post("/api/agent", { messages: [{ role: "user", content }], date: DAY });
const requestsOf = (kind: string) => fake.received.filter((r) => requestKind(r.body) === kind).map((r) => r.body);

describe("the coach with a language model", () => {
  it("grounds the chat in a data message, keeps user data out of the instructions and sends the key only as a header", async () => {
    const api = await newApi();
    await api.put("/api/targets", { dailyKcalTarget: 2000, proteinTargetG: 150 });
    await api.post("/api/weight", { weightKg: 80, note: "slept badly, knee sore", ts: Date.parse(`${DAY}T07:00:00Z`) });
    await api.post("/api/nutrition/items", { date: DAY, name: "overnight oats with honey", kcal: 450, proteinG: 15 });
    // The coach reads trend and expenditure from insights' read model, which the weigh-in and the item reach by events.
    await expect.poll(async () => {
      const insights = (await api.get(`/api/insights?date=${DAY}`)).body as { trendKg: number | null; days: unknown[] };
      return [insights.trendKg, insights.days.length];
    }, { timeout: 10_000 }).toEqual([80, 1]);
    const history = [
      { role: "user", content: "Hi coach" },
      { role: "assistant", content: "Hello, what are you planning to eat?" },
      { role: "user", content: "Can I have 2 slices of pizza tonight?" },
    ];

    const response = await api.post("/api/agent", { messages: history, date: DAY });

    expect(response.status).toBe(200);
    expect(response.body).toEqual({ reply: REPLY });
    expect(fake.received.map((r) => requestKind(r.body))).toEqual(["foods", "chat"]);
    for (const { headers, body } of fake.received) {
      expect(headers.authorization).toBe(`Bearer ${KEY}`);
      expect(JSON.stringify(body)).not.toContain(KEY);
      expect(body.model).toBe(MODEL);
    }
    const [chat] = requestsOf("chat");
    const [instructions, data, ...turns] = chat!.messages;
    expect(instructions!.role).toBe("system");
    expect(instructions!.content).toContain(`Internal reference (confidential): ${CANARY}`);
    for (const userData of ["slept badly", "knee sore", "overnight oats", "pizza"]) expect(instructions!.content).not.toContain(userData);
    expect(data!.role).toBe("system");
    expect(data!.content).toMatch(/^<data>\n[^]*\n<\/data>\n[^<]*$/);
    expect(dataOf(chat!)).toMatchObject({
      date: DAY,
      targets: { dailyKcalTarget: 2000, proteinTargetG: 150 },
      weight: { latestKg: 80, note: "slept badly, knee sore" },
      // Trend and expenditure, not raw means, and what one weigh-in and one food day cannot judge yet.
      progress: {
        trendKg: 80,
        weeklyRateKg: null,
        goal: null,
        expenditure: { confidence: "formula", daysCounted: 1 },
        tooThin: [
          "weekly rate: too little data to judge: 1 day of weigh-ins",
          "expenditure: too little data to judge: 1 counted food day; the figure is the profile's formula",
        ],
      },
      intake: { kcal: 450, proteinG: 15, items: [{ name: "overnight oats with honey", kcal: 450, proteinG: 15 }] },
      unavailable: [],
    });
    expect(turns).toEqual(history);
  });

  it("repairs one malformed food answer and logs the items with the model's ranges", async () => {
    const api = await newApi();
    fake.enqueue({ reply: "not json" });

    const response = await api.post("/api/nutrition/describe", { text: "2 slices of pizza", date: DAY });

    expect(response.status).toBe(200);
    expect(response.body.items).toHaveLength(1);
    const [item] = response.body.items;
    expect(item.estimate.source).toBe(`model:${MODEL}`);
    expect(item.estimate.kcal.low).toBeLessThan(item.kcal);
    expect(item.estimate.kcal.high).toBeGreaterThan(item.kcal);
    expect(item.estimate.proteinG.low).toBeLessThan(item.proteinG);
    expect(item.estimate.proteinG.high).toBeGreaterThan(item.proteinG);
    expect((await api.get(`/api/nutrition/items?date=${DAY}`)).body).toEqual([item]);
    const [first, repair] = requestsOf("foods");
    expect(repair!.messages.slice(0, first!.messages.length)).toEqual(first!.messages);
    expect(repair!.messages).toContainEqual({ role: "assistant", content: "not json" });
  });

  it("answers 502 when the food answer is still malformed after the repair, and logs nothing", async () => {
    const api = await newApi();
    fake.enqueue({ reply: "not json" }, { reply: "{\"items\": \"pizza\"}" });

    const response = await api.post("/api/nutrition/describe", { text: "2 slices of pizza", date: DAY });

    expect(response.status).toBe(502);
    expect(response.body.detail).toBe("malformed answer after one repair attempt");
    expect(requestsOf("foods")).toHaveLength(2);
    expect((await api.get(`/api/nutrition/items?date=${DAY}`)).body).toEqual([]);
  });

  it("answers 502 when the model refuses", async () => {
    answerChat(() => ({ refusal: "I can't help with that." }));
    const response = await ask(await newApi(), "Can I have 2 slices of pizza?");
    expect(response.status).toBe(502);
    expect(response.body).toEqual({ error: "the language model refused", detail: "the model refused to answer" });
  });

  it("answers 502 with only the upstream status, code and request id when the upstream's error echoes the key", async () => {
    const echo = `Incorrect API key provided: ${KEY}. Authorization: Bearer ${KEY}`;
    answerChat(() => ({ status: 500, body: { error: { message: echo, type: "server_error", param: KEY, code: "server_error" } }, headers: { "x-echo": `Bearer ${KEY}` } }));

    const response = await ask(await newApi(), "Can I have 2 slices of pizza?");

    expect(response.status).toBe(502);
    expect(response.body.detail).toMatch(/^upstream status 500, code server_error, request req_[0-9a-f]+$/);
    const everything = JSON.stringify(response.body) + JSON.stringify([...response.headers]);
    expect(everything).not.toContain("sk-test");
    expect(everything).not.toContain("SECRET");
  });

  it("does not pass on a key the upstream sends back as its error code or request id", async () => {
    answerChat(() => ({ status: 500, body: { error: { message: "bad key", type: "server_error", param: null, code: KEY } }, headers: { "x-request-id": KEY } }));

    const response = await ask(await newApi(), "Can I have 2 slices of pizza?");

    expect(response.status).toBe(502);
    expect(response.body.detail).toMatch(/^upstream status 500/);
    expect(JSON.stringify(response.body)).not.toContain("SECRET");
  });

  it("answers 502 naming the upstream's 429", async () => {
    answerChat(() => ({ status: 429, body: { error: { message: "Rate limit reached", type: "requests", param: null, code: "rate_limit_exceeded" } } }));
    const response = await ask(await newApi(), "Can I have 2 slices of pizza?");
    expect(response.status).toBe(502);
    expect(response.body.detail).toContain("upstream status 429");
  });

  it("answers 504 soon after the model's deadline when the model hangs", async () => {
    answerChat(() => ({ hang: true }));
    const started = Date.now();
    const response = await ask(await newApi(), "Can I have 2 slices of pizza?");
    const elapsed = Date.now() - started;
    expect(response.status).toBe(504);
    expect(response.body.detail).toBe(`no answer within ${TIMEOUT_MS} ms`);
    expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 100);
    expect(elapsed).toBeLessThan(TIMEOUT_MS + 1000);
  });

  it("answers 429 with Retry-After to a call past the coach's concurrency and queue", async () => {
    answerChat(() => ({ delayMs: 1000, then: { reply: REPLY } }));
    const api = await newApi(tight);

    const responses = await Promise.all([ask(api, "Can I have 2 slices of pizza?"), ask(api, "Can I have 2 slices of pizza?")]);

    expect(responses.map((r) => r.status).sort()).toEqual([200, 429]);
    const busy = responses.find((r) => r.status === 429)!;
    expect(busy.body.error).toBe("the coach is busy, retry shortly");
    expect(Number(busy.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("answers 429 with Retry-After once the account's daily calls are spent, and reports the usage", async () => {
    const api = await newApi(tight);
    expect((await ask(api, "Can I have 2 slices of pizza?")).status).toBe(200);
    expect((await ask(api, "And a beer?")).status).toBe(200);

    const third = await ask(api, "And dessert?");

    expect(third.status).toBe(429);
    expect(third.body.error).toBe("daily coach quota reached");
    const retryAfter = Number(third.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(86_400);
    expect(requestsOf("chat")).toHaveLength(2);
    const usage = (await api.get("/api/coach/usage")).body;
    expect(usage).toMatchObject({ calls: 2, limits: { callsPerDay: 2, tokensPerDay: 300_000 }, estimator: `model:${MODEL}` });
    expect(usage.tokens).toBeGreaterThan(0);
  });

  it("estimates the same words once a day, and the coach's estimate equals what the food log stored", async () => {
    const api = await newApi();
    const first = await api.post("/api/nutrition/describe", { text: "2 slices of pizza", date: DAY });
    const second = await api.post("/api/nutrition/describe", { text: "2  Slices of pizza.", date: DAY });
    expect([first.status, second.status]).toEqual([200, 200]);
    const numbers = (item: { kcal: number; proteinG: number; estimate: unknown }) => ({ kcal: item.kcal, proteinG: item.proteinG, estimate: item.estimate });
    expect(second.body.items.map(numbers)).toEqual(first.body.items.map(numbers));

    expect((await ask(api, "2 slices of pizza")).status).toBe(200);

    expect(requestsOf("foods")).toHaveLength(1);
    const [logged] = first.body.items;
    const [estimate] = dataOf(requestsOf("chat")[0]!).estimate;
    expect({ kcal: estimate!.kcal, proteinG: estimate!.proteinG, estimate: { kcal: estimate!.kcalRange, proteinG: estimate!.proteinRange, source: estimate!.source } }).toEqual(
      numbers(logged),
    );
  });

  it("refuses a query date that differs from the body's", async () => {
    const api = await newApi();
    const response = await api.post("/api/agent?date=2026-03-11", { messages: [{ role: "user", content: "hi" }], date: DAY });
    expect(response.status).toBe(400);
    expect(fake.received).toHaveLength(0);
  });

  it("logs a described workout the model read, with the energy estimated from the MET table", async () => {
    const api = await newApi();
    const response = await api.post("/api/workouts/describe", { text: "ran 5 km this morning in 30 minutes", date: DAY, tz: 0 });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ activityType: "run", distanceM: 5000, durationS: 1800 });
    expect(response.body.energyKcal).toBeGreaterThan(0);
    expect(response.body.energyEstimate.source).toMatch(/^table:met/);
    expect(requestsOf("workout")).toHaveLength(1);
  });
});

describe("the coach when body-metrics does not answer", () => {
  // Systems of their own: stopping a service of a shared one would break every test after this one.
  const withoutBodyMetrics = async (env: Record<string, string>) => {
    const own = await start({ COACH_GROUNDING_TIMEOUT_MS: "300", ...env });
    onTestFinished(() => own.stop());
    const api = await newApi(own);
    await own.apps.bodyMetrics.close();
    return api;
  };

  it("still answers through the model, naming weight and targets as unavailable", async () => {
    const api = await withoutBodyMetrics(modelEnv(fake.url));
    const response = await ask(api, "Can I have 2 slices of pizza?");
    expect(response.status).toBe(200);
    expect(response.body.reply).toBe(REPLY);
    const { unavailable } = dataOf(requestsOf("chat")[0]!);
    expect(unavailable).toEqual(expect.arrayContaining(["weight", "targets"]));
    expect(unavailable).not.toContain("food log for the day");
  });

  it("still answers with the built-in estimator, saying what it could not read", async () => {
    const api = await withoutBodyMetrics({});
    const response = await ask(api, "Can I have 2 slices of pizza?");
    expect(response.status).toBe(200);
    expect(response.body.reply).toContain(`On ${DAY}:`);
    // Insights reads the goal from body-metrics too, so its answer is missing as well.
    expect(response.body.reply).toMatch(/I could not read your (targets, weight|weight, targets), trend and expenditure just now/);
  });
});
