import { randomUUID } from "node:crypto";
import { createSigner } from "fast-jwt";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { AppError } from "@fit/contracts";
import { parseJsonBody } from "../../src/json-body.ts";
import {
  ASSERTION_HEADER, baseEnv, ConfigError, createHttpApp, createServiceApp, decodeCursor, encodeCursor, loadConfig, loggerOptions,
  signAssertion, toAppError, verifyAssertion,
} from "../../src/index.ts";

const secret = "k".repeat(40);
const caller = { accountId: randomUUID(), email: "kit@example.com", scopes: ["weight:read"] };

describe("configuration", () => {
  it("stops with a message naming every wrong or missing variable", () => {
    const attempt = () => loadConfig(baseEnv(3000), { PORT: "http", DATABASE_URL: "mysql://x" });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/PORT/);
    expect(attempt).toThrow(/DATABASE_URL: must be a postgres:\/\/ URL/);
    expect(attempt).toThrow(/INTERNAL_ASSERTION_SECRET/);
  });

  it("treats an empty variable as unset and applies defaults", () => {
    const config = loadConfig(baseEnv(3101), { INTERNAL_ASSERTION_SECRET: secret, DATABASE_URL: "" });
    expect(config).toMatchObject({ PORT: 3101, HOST: "127.0.0.1", DATA_DIR: "./data" });
    expect(config.DATABASE_URL).toBeUndefined();
  });
});

describe("internal assertion", () => {
  it("round-trips the caller and refuses another secret or garbage", async () => {
    const token = await signAssertion(secret, caller);
    expect(await verifyAssertion(secret, token)).toEqual(caller);
    await expect(verifyAssertion("x".repeat(40), token)).rejects.toMatchObject({ code: "unauthenticated" });
    await expect(verifyAssertion(secret, "a.b.c")).rejects.toMatchObject({ code: "unauthenticated" });
  });

  it("refuses an assertion older than its 60-second lifetime", async () => {
    const stale = createSigner({ key: secret, algorithm: "HS256", iss: "fit-gateway", aud: "fit-services", expiresIn: 60_000, clockTimestamp: Date.now() - 61_000 });
    const token = stale({ sub: caller.accountId, email: caller.email, scopes: null });
    await expect(verifyAssertion(secret, token)).rejects.toMatchObject({ code: "unauthenticated" });
  });
});

describe("internal assertion reuse", () => {
  afterEach(() => void vi.useRealTimers());

  it("hands out a caller's assertion again for half its life, then a new one", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    const first = await signAssertion(secret, caller);
    vi.advanceTimersByTime(29_000);
    expect(await signAssertion(secret, caller)).toBe(first);
    expect(await signAssertion(secret, { ...caller, scopes: ["read"] })).not.toBe(first);
    vi.advanceTimersByTime(2_000);
    expect(await signAssertion(secret, caller)).not.toBe(first);
  });

  it("remembers a verified assertion only until it expires", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 1_000_000 });
    const token = await signAssertion(secret, caller);
    expect(await verifyAssertion(secret, token)).toEqual(caller);
    vi.advanceTimersByTime(59_000);
    expect(await verifyAssertion(secret, token)).toEqual(caller);
    vi.advanceTimersByTime(2_000);
    await expect(verifyAssertion(secret, token)).rejects.toMatchObject({ code: "unauthenticated" });
  });
});

describe("cursor", () => {
  it("round-trips a position and refuses a forged cursor with a validation error", () => {
    const id = "0b8f6f8e-3c1a-4c5e-9a57-4f0f3f1b2c3d";
    expect(decodeCursor(encodeCursor({ at: 5, id }))).toEqual({ at: 5, id });
    const forged = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
    for (const cursor of ["bm9wZQ", "WzEsImEiXQ", forged([9e15, id]), forged([1.5, id]), forged([1, id, 2]), forged({ at: 1, id })]) {
      expect(() => decodeCursor(cursor), cursor).toThrow(AppError);
    }
  });
});

describe("JSON bodies", () => {
  it("refuse NUL, spelled as the JSON escape, in a value or a key, and keep a backslash followed by u0000", () => {
    for (const body of ['{"note":"a\\u0000b"}', '{"a\\u0000":1}', '{"items":[{"name":"\\u0000"}]}']) {
      expect(() => parseJsonBody(body), body).toThrow("text must not contain NUL characters");
    }
    expect(parseJsonBody('{"note":"a\\\\u0000b"}')).toEqual({ note: "a\\u0000b" });
    expect(() => parseJsonBody('{"note":"a\u0000b"}')).toThrow("body is not valid JSON");
  });
});

describe("replies", () => {
  it("write only what the response schema declares, nulls and nested items included", async () => {
    const app = createServiceApp({ name: "kit", logger: false, assertionSecret: secret, readiness: async () => {} });
    const Item = z.object({ id: z.string(), note: z.string().nullable(), kg: z.number().nullable() });
    app.get("/api/items", { schema: { response: { 200: z.object({ items: z.array(Item), next: z.string().nullable() }) } } }, async () => ({
      items: [{ id: "a", note: null, kg: 80.5, accountId: "internal" }, { id: "b", note: "x", kg: null, secret: 1 }],
      next: null,
      internal: "never shown",
    }));
    const response = await app.inject({ method: "GET", url: "/api/items", headers: { [ASSERTION_HEADER]: await signAssertion(secret, caller) } });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('{"items":[{"id":"a","note":null,"kg":80.5},{"id":"b","note":"x","kg":null}],"next":null}');
  });

  it("compile a response schema once, however many routes share it", async () => {
    const app = createServiceApp({ name: "kit", logger: false, assertionSecret: secret, readiness: async () => {} });
    const Shared = z.object({ n: z.number() });
    const serializers: unknown[] = [];
    for (const url of ["/api/one", "/api/two"]) {
      app.get(url, { schema: { response: { 200: Shared } } }, async (_request, reply) => {
        serializers.push(reply.getSerializationFunction("200"));
        return { n: 1 };
      });
    }
    const headers = { [ASSERTION_HEADER]: await signAssertion(secret, caller) };
    for (const url of ["/api/one", "/api/two"]) expect((await app.inject({ method: "GET", url, headers })).body).toBe('{"n":1}');
    expect(serializers[0]).toBeTypeOf("function");
    expect(serializers[1]).toBe(serializers[0]);
  });

  it("write a schema JSON Schema cannot express with zod's own encode", async () => {
    const app = createServiceApp({ name: "kit", logger: false, assertionSecret: secret, readiness: async () => {} });
    app.get("/api/when", { schema: { response: { 200: z.object({ at: z.date() }) } } }, async () => ({ at: new Date(0), extra: 1 }));
    const response = await app.inject({ method: "GET", url: "/api/when", headers: { [ASSERTION_HEADER]: await signAssertion(secret, caller) } });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('{"at":"1970-01-01T00:00:00.000Z"}');
  });
});

describe("service app", () => {
  const build = (readiness: () => Promise<void> = async () => {}) => {
    const app = createServiceApp({ name: "kit", logger: false, assertionSecret: secret, readiness });
    app.get("/api/boom", async () => {
      throw new Error("secret stack detail");
    });
    app.post("/api/echo", { schema: { body: z.object({ n: z.number().max(3, { error: "n must be at most 3" }) }) } }, async (request) => request.body);
    return app;
  };
  const headers = async () => ({ [ASSERTION_HEADER]: await signAssertion(secret, caller) });

  it("answers an unexpected fault with a bare internal error, no stack or message", async () => {
    const response = await build().inject({ method: "GET", url: "/api/boom", headers: await headers() });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ error: "internal error" });
  });

  it("answers validation failures with the field's message and unknown routes with a 404 envelope", async () => {
    const app = build();
    const invalid = await app.inject({ method: "POST", url: "/api/echo", headers: await headers(), payload: { n: 4 } });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toEqual({ error: "n must be at most 3" });
    const missing = await app.inject({ method: "GET", url: "/nope", headers: await headers() });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: "not found" });
  });

  it("asks for the assertion on every route but the health probes, an unknown one or a re-spelled one included", async () => {
    const app = build();
    for (const url of ["/nope", "/api/echo", "//api/echo", "/%61pi/echo", "/API/echo"]) {
      const response = await app.inject({ method: "POST", url, payload: { n: 1 } });
      expect(response.statusCode, url).toBe(401);
      expect(response.json()).toEqual({ error: "missing internal assertion" });
    }
    for (const url of ["/healthz", "/readyz"]) expect((await app.inject({ method: "GET", url })).statusCode, url).toBe(200);
  });

  it("reports not ready with 503 while a dependency fails, and live all the same", async () => {
    const app = build(async () => {
      throw new Error("database down");
    });
    const ready = await app.inject({ method: "GET", url: "/readyz" });
    expect(ready.statusCode).toBe(503);
    expect(ready.headers["retry-after"]).toBe("5");
    expect((await app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);
  });

  it("finishes an in-flight request when closed, then refuses new connections", async () => {
    const app = createServiceApp({ name: "kit", logger: false, assertionSecret: secret, readiness: async () => {} });
    let arrived!: () => void;
    const inHandler = new Promise<void>((resolve) => (arrived = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    app.get("/api/slow", async () => {
      arrived();
      await gate;
      return { done: true };
    });
    const url = await app.listen({ host: "127.0.0.1", port: 0 });
    const inFlight = fetch(`${url}/api/slow`, { headers: await headers() });
    // Closing before the request has reached its handler would test a refused request, not an in-flight one.
    await Promise.race([inHandler, inFlight.then((r) => Promise.reject(new Error(`answered ${r.status} before reaching the handler`)))]);
    const closing = app.close();
    release();
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ done: true });
    await closing;
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  });
});

describe("request logs", () => {
  const logged = async (level: string) => {
    const lines: string[] = [];
    const options = loggerOptions("kit", level) as object;
    const app = createHttpApp({ name: "kit", logger: { ...options, stream: { write: (line: string) => void lines.push(line) } }, readiness: async () => {} });
    await app.inject({ method: "GET", url: "/unknown" });
    return lines.map((line) => (JSON.parse(line) as { msg: string }).msg);
  };

  it("are a line in and a line out per request at debug, and not logged at info", async () => {
    expect(await logged("debug")).toEqual(expect.arrayContaining(["incoming request", "request completed"]));
    expect(await logged("info")).not.toContain("incoming request");
    expect(await logged("info")).not.toContain("request completed");
  });

  it("warn of a failed upstream, but only note at debug a caller who hung up on a forwarded request", async () => {
    const lines: string[] = [];
    const options = loggerOptions("kit", "info") as object;
    const app = createHttpApp({ name: "kit", logger: { ...options, stream: { write: (line: string) => void lines.push(line) } }, readiness: async () => {} });
    app.get("/hung-up", async () => {
      throw Object.assign(new Error("Request aborted"), { code: "UND_ERR_ABORTED" });
    });
    app.get("/upstream-down", async () => {
      throw new AppError("unavailable", "a service is unavailable");
    });
    expect((await app.inject({ method: "GET", url: "/hung-up" })).statusCode).toBe(503);
    expect(lines).toEqual([]);
    await app.inject({ method: "GET", url: "/upstream-down" });
    expect(lines.map((line) => JSON.parse(line) as { level: number; msg: string })).toMatchObject([{ level: 40, msg: "a service is unavailable" }]);
  });

  it("never carry a sign-in token or code from the URL", async () => {
    const lines: string[] = [];
    const options = loggerOptions("kit", "debug") as object;
    const app = createHttpApp({ name: "kit", logger: { ...options, stream: { write: (line: string) => void lines.push(line) } }, readiness: async () => {} });
    await app.inject({ method: "GET", url: "/api/auth/magic-link/verify?token=s3cret-token&callbackURL=%2F" });
    await app.inject({ method: "GET", url: "/oauth/callback?state=st4te&code=c0de" });
    const logged = lines.join("");
    expect(logged).toContain("token=[redacted]");
    for (const secret of ["s3cret-token", "st4te", "c0de"]) expect(logged).not.toContain(secret);
  });
});

describe("a database that is away", () => {
  // Shapes of what Prisma 7 with @prisma/adapter-pg throws while PostgreSQL stops, restarts or recovers.
  const restarting = Object.assign(new Error("Database error. Code: `57P03`. Message: `the database system is starting up`"), {
    code: "P2039",
    meta: { driverAdapterError: { name: "DriverAdapterError", cause: { kind: "postgres", code: "57P03", originalCode: "57P03" } } },
  });
  const terminated = Object.assign(new Error("Invalid prisma call"), { cause: Object.assign(new Error("terminating connection"), { code: "57P01" }) });
  const rollback = new Error("Client has encountered a connection error and is not queryable");

  it("is a 503, not an internal error", () => {
    for (const error of [restarting, terminated, rollback]) {
      expect(toAppError(error), error.message).toMatchObject({ code: "unavailable", status: 503 });
    }
    expect(toAppError(Object.assign(new Error("duplicate key"), { code: "P2002" })).code).toBe("internal");
  });
});
