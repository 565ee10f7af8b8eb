import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { api, tracing } from "@opentelemetry/sdk-node";
import { startTelemetry, type Telemetry } from "@fit/telemetry";
import { freePort, startFakeOpenAi, type FakeOpenAi } from "@fit/testing";
import { modelAnswers } from "./support/coach-model-requests.ts";
import { client } from "./support/http.ts";
import type { System } from "./support/system.ts";

type Span = tracing.ReadableSpan;
const { SpanKind } = api;

const MODEL = "fake-telemetry-model";
const DAY = "2026-03-10";

const spans = new tracing.InMemorySpanExporter();
let telemetry: Telemetry | null;
let fake: FakeOpenAi;
let system: System;
let metricsUrl: string;

beforeAll(async () => {
  const metricsPort = await freePort();
  metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
  telemetry = await startTelemetry(
    "fit-test",
    { METRICS_PORT: metricsPort, METRICS_HOST: "127.0.0.1" },
    { spanProcessors: [new tracing.SimpleSpanProcessor(spans)] },
  );
  // Loaded only now, as main.ts loads a service: Fastify must require node:http after the HTTP instrumentation.
  const { startSystem } = await import("./support/system.ts");
  fake = await startFakeOpenAi();
  system = await startSystem({
    databaseUrl: inject("databaseUrl"),
    natsUrl: inject("natsUrl"),
    env: { COACH_MODEL_URL: fake.url, COACH_MODEL_API_KEY: "sk-test", COACH_MODEL: MODEL, COACH_MODEL_RETRIES: "0" },
  });
});
afterAll(async () => {
  await system?.stop();
  await telemetry?.shutdown();
  await fake?.close();
});
beforeEach(() => {
  fake.reset();
  fake.setFallback(modelAnswers(() => ({ reply: "Fine." })));
});

const finished = () => spans.getFinishedSpans();
const traceOf = (span: Span) => finished().filter((s) => s.spanContext().traceId === span.spanContext().traceId);
const pathOf = (span: Span) => span.attributes["url.path"];
const portOf = (span: Span) => Number(span.attributes["server.port"]);
const gatewayPort = () => Number(new URL(system.url).port);

/** The gateway's HTTP server span for `method path`, once it has ended (after the response reached the test). */
const gatewaySpan = async (method: string, path: string): Promise<Span> => {
  const find = () =>
    finished().find((s) => s.kind === SpanKind.SERVER && portOf(s) === gatewayPort() && pathOf(s) === path && s.attributes["http.request.method"] === method);
  await expect.poll(find, { timeout: 10_000 }).toBeDefined();
  return find() as Span;
};

/** Whether `span` is `ancestor` or below it, following parent ids through the spans of its trace. */
const descendsFrom = (span: Span, ancestor: Span, trace: Span[]): boolean => {
  const byId = new Map(trace.map((s) => [s.spanContext().spanId, s]));
  for (let at: Span | undefined = span; at; at = byId.get(at.parentSpanContext?.spanId ?? "")) {
    if (at === ancestor) return true;
  }
  return false;
};

/** A database round trip in a trace: a statement of a store's own SQL or of the Prisma client, or a transaction's BEGIN. */
const isRoundTrip = (s: Span) => s.name === "db.query" || s.name === "prisma:client:db_query" || s.name === "prisma:client:start_transaction";
const statementOf = (s: Span) => String(s.attributes["db.query.text"] ?? s.name).replace(/\s+/g, " ").trim().slice(0, 90);

/** The round trips of the trace `root` started, once the work it caused after the answer (events, roll-ups) has stopped adding any. */
const roundTripsOf = async (root: Span) => {
  let seen = -1;
  await expect
    .poll(
      () => {
        const now = traceOf(root).filter(isRoundTrip).length;
        const settled = now === seen;
        seen = now;
        return settled;
      },
      { timeout: 10_000, interval: 750 },
    )
    .toBe(true);
  return traceOf(root).filter(isRoundTrip).map(statementOf);
};

// The database is the largest CPU share of a request (docs/performance.md): each request's round trips, those of the
// events it causes included, are held to a ceiling, so a change that adds one is seen here before it is seen in a bench.
describe("database round trips per request, on an account in use", () => {
  const requests = [
    { method: "POST", path: "/api/weight", body: { weightKg: 80.4 }, most: 2 },
    { method: "GET", path: "/api/weight", most: 1 },
    { method: "POST", path: "/api/nutrition/items", body: { date: DAY, name: "oats", kcal: 300, proteinG: 10 }, most: 8 },
    { method: "GET", path: "/api/dashboard", most: 5 },
  ] as const;

  it.each(requests)("$method $path makes at most $most", async ({ method, path, most, ...rest }) => {
    const api = client(system.url, (await system.account()).key);
    const send = () => ("body" in rest ? api.post(path, rest.body) : api.get(path));
    // The account's first request pays once for what later ones do not: its key's lookup and insights' back-fill.
    expect((await send()).status).toBeLessThan(300);
    await roundTripsOf(await gatewaySpan(method, path));
    spans.reset();
    expect((await send()).status).toBeLessThan(300);
    const statements = await roundTripsOf(await gatewaySpan(method, path));
    expect(statements.length, statements.join("\n")).toBeLessThanOrEqual(most);
  });
});

describe("traces", () => {
  it("a dashboard request is one trace from the gateway through every service it asks, their queries included", async () => {
    const api = client(system.url, (await system.account()).key);
    spans.reset();
    expect((await api.get("/api/dashboard")).status).toBe(200);

    const root = await gatewaySpan("GET", "/api/dashboard");
    const trace = traceOf(root);
    const answered = trace.filter((s) => s.kind === SpanKind.SERVER && s.attributes["messaging.consumer.group.name"]);
    expect(new Set(answered.map((s) => s.attributes["messaging.consumer.group.name"]))).toEqual(new Set(["body-metrics", "nutrition", "workouts", "insights"]));
    for (const span of answered) expect(descendsFrom(span, root, trace), span.name).toBe(true);
    // The services' database queries, each under the bus handler that made it.
    const queries = trace.filter((s) => s.name.startsWith("prisma:client:operation") || s.name === "db.query");
    expect(queries.filter((q) => answered.some((a) => descendsFrom(q, a, trace))).length).toBeGreaterThanOrEqual(answered.length);
    // Nothing any service did for this request went into a trace of its own.
    const elsewhere = finished().filter((s) => s.kind === SpanKind.SERVER && s.attributes["messaging.consumer.group.name"] && !trace.includes(s));
    expect(elsewhere.map((s) => s.name)).toEqual([]);
  });

  it("better-auth's own spans join the trace of the sign-in request that caused them", async () => {
    spans.reset();
    const origin = new URL(system.url).origin;
    expect((await client(system.url).post("/api/auth/sign-in/magic-link", { email: "traced@example.com" }, { origin })).status).toBe(200);

    const root = await gatewaySpan("POST", "/api/auth/sign-in/magic-link");
    const trace = traceOf(root);
    const own = trace.filter((s) => s.instrumentationScope.name === "better-auth");
    expect(own.map((s) => s.name)).not.toEqual([]);
    for (const span of own) expect(descendsFrom(span, root, trace), span.name).toBe(true);
  });

  it("a request the gateway forwards continues in the service's own HTTP span", async () => {
    const api = client(system.url, (await system.account()).key);
    spans.reset();
    expect((await api.get(`/api/nutrition/items?date=${DAY}`)).status).toBe(200);

    const root = await gatewaySpan("GET", "/api/nutrition/items");
    const nutritionPort = Number(new URL(system.services.nutrition).port);
    const served = traceOf(root).find((s) => s.kind === SpanKind.SERVER && portOf(s) === nutritionPort);
    expect(served).toBeDefined();
    expect(descendsFrom(served as Span, root, traceOf(root))).toBe(true);
  });

  it("a food write's trace goes on through the outbox and JetStream to the roll-up it caused", async () => {
    const api = client(system.url, (await system.account()).key);
    spans.reset();
    expect((await api.post("/api/nutrition/items", { date: DAY, name: "oats", kcal: 300, proteinG: 10 })).status).toBe(200);

    const write = await gatewaySpan("POST", "/api/nutrition/items");
    const rollUp = () =>
      traceOf(write).find((s) => s.kind === SpanKind.CONSUMER && s.attributes["messaging.consumer.group.name"] === "nutrition-rollup-logged");
    await expect.poll(rollUp, { timeout: 10_000 }).toBeDefined();
    const trace = traceOf(write);
    const published = trace.find((s) => s.kind === SpanKind.PRODUCER && String(s.attributes["messaging.destination.name"]).endsWith("nutrition.item.logged"));
    expect(published).toBeDefined();
    expect(descendsFrom(published as Span, write, trace)).toBe(true);
    expect(descendsFrom(rollUp() as Span, published as Span, trace)).toBe(true);
  });

  it("a coach question is traced to the model call, with the model and its tokens and no prompt", async () => {
    const api = client(system.url, (await system.account()).key);
    spans.reset();
    expect((await api.post("/api/agent", { messages: [{ role: "user", content: "How am I doing?" }], date: DAY })).status).toBe(200);

    const root = await gatewaySpan("POST", "/api/agent");
    const find = () => traceOf(root).find((s) => s.kind === SpanKind.CLIENT && s.name === `chat ${MODEL}`);
    await expect.poll(find, { timeout: 10_000 }).toBeDefined();
    const call = find() as Span;
    expect(call.attributes).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.request.model": MODEL,
      "gen_ai.usage.input_tokens": expect.any(Number),
      "gen_ai.usage.output_tokens": expect.any(Number),
    });
    expect(JSON.stringify(call.attributes)).not.toContain("How am I doing");
    const trace = traceOf(root);
    expect(descendsFrom(call, root, trace)).toBe(true);
    // The HTTP request to the model server (fetch, seen by the undici instrumentation) sits under the call.
    expect(trace.some((s) => s.kind === SpanKind.CLIENT && s !== call && descendsFrom(s, call, trace))).toBe(true);
  });
});

describe("metrics on METRICS_PORT", () => {
  const scrape = async () => (await fetch(metricsUrl)).text();
  /** The first sample of `name` whose labels include every one of `labels`. */
  const sample = (text: string, name: string, labels: Record<string, string> = {}) =>
    text
      .split("\n")
      .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
      .find((line) => Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`)));

  it("shows request, bus, outbox, consumer and model series after real traffic", async () => {
    const api = client(system.url, (await system.account()).key);
    await api.post("/api/nutrition/items", { date: DAY, name: "rice", kcal: 400, proteinG: 8 });
    expect((await api.get("/api/dashboard")).status).toBe(200);
    expect((await api.get("/api/no-such-route")).status).toBe(404);
    await api.post("/api/agent", { messages: [{ role: "user", content: "And now?" }], date: DAY });
    fake.enqueue({ status: 500, body: { error: { message: "down", type: "server_error", code: null } } });
    expect((await api.post("/api/agent", { messages: [{ role: "user", content: "Again?" }], date: DAY })).status).toBe(502);

    const text = await scrape();
    const route = { "fit_service": "gateway", "http_route": "/api/dashboard", "http_request_method": "GET", "http_response_status_code": "200" };
    expect(sample(text, "http_server_request_duration_count", route)).toBeDefined();
    expect(sample(text, "http_server_request_duration_bucket", route)).toBeDefined();
    expect(sample(text, "http_server_request_duration_count", { "fit_service": "nutrition", "http_route": "/api/nutrition/items" })).toBeDefined();
    // A URL no route matches is counted under the pattern that answered it, never as a series of its own.
    expect(sample(text, "http_server_request_duration_count", { "fit_service": "gateway", "http_response_status_code": "404" })).toBeDefined();
    expect(text).not.toContain("no-such-route");
    // Subjects carry this system's namespace prefix.
    expect(text).toMatch(/^fit_bus_request_duration_count\{messaging_destination_name="[^"]*\.nutrition\.day-total\.get"/m);
    expect(text).toMatch(/^fit_bus_request_duration_count\{messaging_destination_name="[^"]*\.coach\.ask",error_type="upstream_failed"/m);
    expect(sample(text, "fit_outbox_pending", { "fit_service": "nutrition" })).toBeDefined();
    expect(sample(text, "fit_outbox_oldest_age", { "fit_service": "nutrition" })).toBeDefined();
    expect(sample(text, "fit_bus_consumer_pending", { "messaging_consumer_group_name": "nutrition-rollup-logged" })).toBeDefined();
    expect(sample(text, "fit_bus_event_redeliveries_total", { "messaging_consumer_group_name": "nutrition-rollup-logged" })).toBeDefined();
    expect(sample(text, "gen_ai_client_operation_duration_count", { "gen_ai_request_model": MODEL })).toBeDefined();
    expect(sample(text, "gen_ai_client_operation_duration_count", { "gen_ai_request_model": MODEL, "error_type": "upstream_failed" })).toBeDefined();
    expect(sample(text, "gen_ai_client_token_usage_sum", { "gen_ai_token_type": "output" })).toMatch(/ (\d+)$/);
  });

  it("counts the coach's calls in flight, what its autoscaler scales on", async () => {
    const api = client(system.url, (await system.account()).key);
    const inFlight = async () => Number(sample(await scrape(), "fit_coach_calls_in_flight", {})?.split(" ").pop());
    expect(await inFlight()).toBe(0);
    fake.enqueue({ delayMs: 1_500, then: { status: 500, body: { error: { message: "slow", type: "server_error", code: null } } } });
    const answer = api.post("/api/agent", { messages: [{ role: "user", content: "Slowly?" }], date: DAY });
    await expect.poll(inFlight, { timeout: 1_400, interval: 100 }).toBe(1);
    await answer;
    expect(await inFlight()).toBe(0);
  });
});
