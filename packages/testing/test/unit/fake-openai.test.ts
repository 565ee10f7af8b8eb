import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FakeOpenAi, imageInputs, startFakeOpenAi, textOf } from "../../src/fake-openai.ts";

const apiKey = "sk-test-fixture-key";

const chatBody = (content = "How much protein?") => ({ model: "gpt-test", messages: [{ role: "user", content }] });

const postChat = (fake: FakeOpenAi, body: unknown = chatBody(), signal?: AbortSignal) =>
  fetch(`${fake.url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${apiKey}` },
    body: JSON.stringify(body),
    signal,
  });

interface Completion {
  id: string;
  created: number;
  choices: { message: { content: string | null } }[];
  usage: unknown;
}
interface ErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

const completionOf = (response: Response) => response.json() as Promise<Completion>;
const errorOf = (response: Response) => response.json() as Promise<ErrorBody>;
const replyOf = async (response: Response) => (await completionOf(response)).choices[0]?.message.content;

describe("fake OpenAI server", () => {
  let fake: FakeOpenAi;
  beforeAll(async () => {
    fake = await startFakeOpenAi();
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  it("answers a chat completion in OpenAI's shape, estimating usage at four characters a token", async () => {
    fake.enqueue({ reply: "Drink water." });
    const response = await postChat(fake, { model: "gpt-test", messages: [{ role: "system", content: "x".repeat(10) }, { role: "user", content: "y".repeat(7) }] });

    expect(fake.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(response.status).toBe(200);
    expect(response.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{24}$/);
    const body = await completionOf(response);
    expect(body).toMatchObject({
      object: "chat.completion",
      model: "gpt-test",
      choices: [{ index: 0, message: { role: "assistant", content: "Drink water.", refusal: null }, finish_reason: "stop", logprobs: null }],
      usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 },
    });
    expect(body.id).toMatch(/^chatcmpl-[0-9a-f]{24}$/);
    expect(Math.abs(body.created - Date.now() / 1000)).toBeLessThan(5);
  });

  it("keeps a turn's image inputs for the test to read, and counts each image as an image, not by its base64", async () => {
    const image = `data:image/jpeg;base64,${"A".repeat(40_000)}`;
    const content = [{ type: "text", text: "y".repeat(8) }, { type: "image_url", image_url: { url: image } }];
    const body = await completionOf(await postChat(fake, { model: "gpt-test", messages: [{ role: "user", content }] }));
    expect(imageInputs(fake.received[0]!.body)).toEqual([image]);
    expect(body.usage).toMatchObject({ prompt_tokens: 2 + 765 });
  });

  it("reports the usage a behaviour gives instead of the estimate", async () => {
    fake.enqueue({ reply: "ok", usage: { prompt_tokens: 120, completion_tokens: 30 } });
    const body = await completionOf(await postChat(fake));
    expect(body.usage).toEqual({ prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 });
  });

  it("consumes queued behaviours in order, then lets the fallback decide from the request, then replies ok after a reset", async () => {
    fake.enqueue({ reply: "first" }, { reply: "second" });
    fake.setFallback((request) => ({ reply: `echo: ${textOf(request.messages[0]?.content)}` }));

    expect(await replyOf(await postChat(fake))).toBe("first");
    expect(await replyOf(await postChat(fake))).toBe("second");
    expect(await replyOf(await postChat(fake, chatBody("third")))).toBe("echo: third");
    fake.reset();
    expect(await replyOf(await postChat(fake))).toBe("ok");
  });

  it("answers a refusal with null content and the refusal text", async () => {
    fake.enqueue({ refusal: "I can't help with that." });
    const body = await completionOf(await postChat(fake));
    expect(body.choices).toEqual([
      { index: 0, message: { role: "assistant", content: null, refusal: "I can't help with that." }, finish_reason: "stop", logprobs: null },
    ]);
  });

  it("sends an error status with the body and headers as given, plus a request id", async () => {
    const errorBody = { error: { message: "upstream exploded near sk-secret-123", type: "server_error", code: null } };
    fake.enqueue({ status: 500, body: errorBody, headers: { "x-debug": "boom" } });
    const response = await postChat(fake);

    expect(response.status).toBe(500);
    expect(response.headers.get("x-debug")).toBe("boom");
    expect(response.headers.get("x-request-id")).toMatch(/^req_/);
    expect(await response.json()).toEqual(errorBody);
  });

  it("sends a 429 with retry-after", async () => {
    fake.enqueue({ status: 429, body: { error: { message: "Rate limit reached", type: "requests", code: "rate_limit_exceeded" } }, headers: { "retry-after": "7" } });
    const response = await postChat(fake);

    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("7");
    expect((await errorOf(response)).error.code).toBe("rate_limit_exceeded");
  });

  it("answers a delayed behaviour no sooner than the delay", async () => {
    fake.enqueue({ delayMs: 300, then: { reply: "late" } });
    const started = performance.now();
    const response = await postChat(fake);
    const elapsed = performance.now() - started;

    expect(await replyOf(response)).toBe("late");
    // Node's timers are millisecond-granular, so allow the one millisecond they may round away.
    expect(elapsed).toBeGreaterThanOrEqual(299);
  });

  it("waits out 50 concurrent delayed requests together, not one after another", async () => {
    const delayMs = 500;
    fake.setFallback((request) => ({ delayMs, then: { reply: `done ${textOf(request.messages[0]?.content)}` } }));
    const started = performance.now();
    const replies = await Promise.all(Array.from({ length: 50 }, async (_, i) => replyOf(await postChat(fake, chatBody(String(i))))));
    const elapsed = performance.now() - started;

    expect(replies).toEqual(Array.from({ length: 50 }, (_, i) => `done ${i}`));
    expect(elapsed).toBeGreaterThanOrEqual(delayMs - 1);
    expect(elapsed).toBeLessThan(delayMs * 4);
  });

  it("records each request's body and headers, in order", async () => {
    const before = Date.now();
    await postChat(fake, { ...chatBody("one"), response_format: { type: "json_object" }, max_completion_tokens: 50 });
    await postChat(fake, chatBody("two"));

    expect(fake.received.map((r) => r.body.messages[0]?.content)).toEqual(["one", "two"]);
    expect(fake.received[0]?.body).toEqual({ ...chatBody("one"), response_format: { type: "json_object" }, max_completion_tokens: 50 });
    expect(fake.received[0]?.headers.authorization).toBe(`Bearer ${apiKey}`);
    expect(fake.received[0]?.headers["content-type"]).toBe("application/json");
    expect(fake.received[0]?.at).toBeGreaterThanOrEqual(before);
  });

  it("lists one model and answers any other path with a 404 JSON error", async () => {
    const models = await fetch(`${fake.url}/models`);
    expect(await models.json()).toEqual({ object: "list", data: [{ id: "fake-model", object: "model", created: 0, owned_by: "fake-openai" }] });

    const unknown = await fetch(`${fake.url}/embeddings`, { method: "POST", body: "{}" });
    expect(unknown.status).toBe(404);
    expect((await errorOf(unknown)).error).toMatchObject({ type: "invalid_request_error", message: "Invalid URL (POST /v1/embeddings)" });
    expect((await fetch(`${fake.url}/chat/completions`)).status).toBe(404);
    expect(fake.received).toEqual([]);
  });

  it("refuses streaming with a 400 and leaves the queue untouched", async () => {
    fake.enqueue({ reply: "kept" });
    const response = await postChat(fake, { ...chatBody(), stream: true });

    expect(response.status).toBe(400);
    expect((await errorOf(response)).error).toMatchObject({ type: "invalid_request_error", param: "stream", message: expect.stringMatching(/stream/i) });
    expect(await replyOf(await postChat(fake))).toBe("kept");
  });

  it("refuses a body that is not JSON with a 400", async () => {
    const response = await fetch(`${fake.url}/chat/completions`, { method: "POST", body: "not json" });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).error.type).toBe("invalid_request_error");
    expect(fake.received).toEqual([]);
  });

  it("keeps answering after a client gives up on a hung request", async () => {
    fake.enqueue({ hang: true });
    await expect(postChat(fake, chatBody(), AbortSignal.timeout(100))).rejects.toThrow(/abort|timeout/i);
    expect(await replyOf(await postChat(fake))).toBe("ok");
  });
});

describe("closing the fake OpenAI server", () => {
  it("releases hung and delayed requests at once", async () => {
    const fake = await startFakeOpenAi();
    fake.enqueue({ hang: true }, { delayMs: 60_000, then: { reply: "never" } });
    const outcomes = Promise.allSettled([postChat(fake), postChat(fake)]);
    await expect.poll(() => fake.received.length).toBe(2);

    const started = performance.now();
    await fake.close();
    const [hung, delayed] = await outcomes;
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(hung).toMatchObject({ status: "rejected", reason: { message: "fetch failed" } });
    expect(delayed).toMatchObject({ status: "rejected", reason: { message: "fetch failed" } });
  });
});
