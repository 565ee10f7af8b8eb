import { randomUUID } from "node:crypto";
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError, operationList, operations } from "@fit/contracts";
import { ASSERTION_HEADER, BODY_LIMIT, createHttpApp, verifyAssertion } from "@fit/service-kit";
import type { FastifyReply, FastifyRequest } from "fastify";
import { authorize, identify } from "../../src/auth/authenticate.ts";
import type { AuthenticatedCaller } from "../../src/identity/credential.ts";
import { forwardRoutes } from "../../src/routes/forward.ts";

const credential = { kind: "api_key", id: randomUUID(), expiresAt: null } as const;
const caller = { accountId: randomUUID(), email: "a@example.com", scopes: null };
/** What the identify hook leaves on a request, without the identity behind it. */
const authenticatedAs = (scopes: string[] | null) => async (request: FastifyRequest) => {
  request.caller = { ...caller, scopes };
  request.credential = credential;
};
const secret = "s".repeat(40);
/** A routed request as the hooks see it: its query string already parsed by the router (this one has none). */
const fakeRequest = (method: string, url: string, headers: Record<string, string> = {}) =>
  ({ method, url, query: {}, headers, caller: undefined, assertion: undefined }) as unknown as FastifyRequest;
const codeOf = (promise: Promise<unknown>) => promise.then(() => "ok", (e: unknown) => (e instanceof AppError ? e.code : String(e)));

describe("identify", () => {
  const resolver = (result: AuthenticatedCaller | null) => ({ resolveCaller: async () => result });
  const reply = {} as FastifyReply;
  let refusals = 0;
  const refused = async () => void refusals++;
  it("refuses a caller without credentials with 401, counting the refusal", async () => {
    const hook = identify({ identity: resolver(null), trustedOrigins: [], refused });
    refusals = 0;
    expect(await codeOf(hook(fakeRequest("GET", "/api/weight"), reply))).toBe("unauthenticated");
    expect(refusals).toBe(1);
  });
  it("does not count an identity store that is down as the caller's refusal", async () => {
    const down = { resolveCaller: async () => Promise.reject(new AppError("unavailable", "the database is unavailable")) };
    const hook = identify({ identity: down, trustedOrigins: [], refused });
    refusals = 0;
    expect(await codeOf(hook(fakeRequest("GET", "/api/weight", { authorization: "Bearer k" }), reply))).toBe("unavailable");
    expect(refusals).toBe(0);
  });
  it("refuses a cookie-authenticated write from an untrusted origin, but not a bearer one", async () => {
    const hook = identify({ identity: resolver({ ...caller, credential }), trustedOrigins: ["https://app.example"], refused });
    refusals = 0;
    expect(await codeOf(hook(fakeRequest("POST", "/api/weight", { origin: "https://evil.example", cookie: "x" }), reply))).toBe("forbidden");
    expect(await codeOf(hook(fakeRequest("POST", "/api/weight", { origin: "https://app.example", cookie: "x" }), reply))).toBe("ok");
    expect(await codeOf(hook(fakeRequest("GET", "/api/weight", { origin: "https://evil.example", cookie: "x" }), reply))).toBe("ok");
    expect(await codeOf(hook(fakeRequest("POST", "/api/weight", { origin: "https://evil.example", authorization: "Bearer k" }), reply))).toBe("ok");
    expect(refusals).toBe(1);
  });
});

interface Echo {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * The gateway's routing against a real upstream over HTTP: one route per contract operation, each forwarded
 * to its service with the assertion in place of the caller's credentials.
 */
describe("forwarding", () => {
  const upstream = Fastify();
  upstream.removeAllContentTypeParsers();
  upstream.addContentTypeParser("*", { parseAs: "string" }, (_request, body, done) => done(null, body));
  // An endless answer, 64 KiB every 10 ms until its connection closes, instead of the echo.
  let answerClosed = () => {};
  upstream.addHook("onRequest", async (request, reply) => {
    if (!request.headers["x-answer-endless"]) return;
    const { raw } = reply;
    raw.writeHead(200, { "content-type": "text/plain" });
    const timer = setInterval(() => raw.write(Buffer.alloc(64 * 1024, "a")), 10);
    raw.once("close", () => {
      clearInterval(timer);
      answerClosed();
    });
    return reply.hijack();
  });
  // An answer of the size asked for, with its length declared or chunked, instead of the echo.
  upstream.addHook("onRequest", async (request, reply) => {
    const bytes = Number(request.headers["x-answer-bytes"] ?? 0);
    if (!bytes) return;
    const answer = Buffer.alloc(bytes, "a");
    void reply.header("content-type", "text/plain").header("x-from", "service");
    return reply.send(request.headers["x-answer-chunked"] ? Readable.from([answer.subarray(0, bytes / 2), answer.subarray(bytes / 2)]) : answer);
  });
  upstream.all("/*", async (request): Promise<Echo> => ({
    method: request.method,
    url: request.url,
    headers: request.headers as Record<string, string>,
    body: typeof request.body === "string" ? request.body : "",
  }));
  const gateway = createHttpApp({ name: "gateway", logger: false, readiness: async () => {} });
  let scopes: string[] | null = null;

  beforeAll(async () => {
    const url = await upstream.listen({ host: "127.0.0.1", port: 0 });
    await gateway.register(async (api) => {
      api.addHook("onRequest", async (request) => authenticatedAs(scopes)(request));
      api.addHook("onRequest", authorize({ assertionSecret: secret }));
      await api.register(forwardRoutes, { upstreams: { "body-metrics": url, nutrition: url, workouts: url, insights: url, imports: url } });
    });
    await gateway.ready();
  });
  afterAll(async () => {
    await gateway.close();
    await upstream.close();
  });

  it("has exactly one route for each operation a service serves", () => {
    for (const op of operationList) {
      expect(gateway.hasRoute({ method: op.method, url: op.path }), `${op.method} ${op.path}`).toBe(op.service !== "gateway");
    }
  });

  it("passes the body and query on unchanged, and swaps the caller's credentials for the assertion", async () => {
    scopes = null;
    const body = '{"weightKg": 81.4,  "note": "é"}';
    const response = await gateway.inject({
      method: "PATCH",
      url: `/api/weight/${randomUUID()}?x=1`,
      headers: { "content-type": "application/json", authorization: "Bearer k", cookie: "s=1", [ASSERTION_HEADER]: "forged" },
      payload: body,
    });
    expect(response.statusCode).toBe(200);
    const echo = response.json<Echo>();
    expect(echo).toMatchObject({ method: "PATCH", body });
    expect(echo.url).toMatch(/^\/api\/weight\/[0-9a-f-]{36}\?x=1$/);
    expect(echo.headers.authorization).toBeUndefined();
    expect(echo.headers.cookie).toBeUndefined();
    expect(await verifyAssertion(secret, echo.headers[ASSERTION_HEADER])).toEqual(caller);
  });

  it("forwards no hop-by-hop or expectation header, nor any header the Connection header names", async () => {
    scopes = null;
    const response = await gateway.inject({
      method: "POST",
      url: "/api/weight",
      headers: {
        "content-type": "application/json",
        expect: "100-continue",
        connection: "keep-alive, x-hop",
        "x-hop": "1",
        "keep-alive": "timeout=5",
        te: "trailers",
        trailer: "x-checksum",
        upgrade: "websocket",
        "proxy-authorization": "Basic eA==",
        "proxy-connection": "keep-alive",
        "x-kept": "yes",
      },
      payload: '{"weightKg":80}',
    });
    expect(response.statusCode).toBe(200);
    const { headers } = response.json<Echo>();
    for (const name of ["expect", "x-hop", "keep-alive", "te", "trailer", "upgrade", "proxy-authorization", "proxy-connection"]) {
      expect(headers[name], name).toBeUndefined();
    }
    expect(headers["x-kept"]).toBe("yes");
  });

  it("sends the service's answer byte for byte with its status and headers, whole or streamed past 64 KiB", async () => {
    scopes = null;
    for (const [bytes, chunked] of [[300, false], [200_000, false], [300, true], [200_000, true]] as const) {
      const response = await gateway.inject({
        method: "GET",
        url: "/api/weight",
        headers: { "x-answer-bytes": String(bytes), ...(chunked ? { "x-answer-chunked": "1" } : {}) },
      });
      expect(response.statusCode, `${bytes} ${chunked}`).toBe(200);
      expect(response.headers["x-from"]).toBe("service");
      expect(response.headers["content-type"]).toBe("text/plain");
      expect(response.rawPayload.equals(Buffer.alloc(bytes, "a")), `${bytes} ${chunked}`).toBe(true);
    }
  });

  it("stops reading a streamed answer when the caller hangs up half-way", async () => {
    scopes = null;
    const address = await gateway.listen({ host: "127.0.0.1", port: 0 });
    const closed = new Promise<void>((resolve) => (answerClosed = resolve));
    const caller = request(`${address}/api/weight`, { headers: { "x-answer-endless": "1" } }, (response) => {
      response.once("data", () => caller.destroy());
    });
    caller.on("error", () => {});
    caller.end();
    await closed;
  });

  it("answers HEAD with the headers of the service's answer and no body", async () => {
    scopes = null;
    const response = await gateway.inject({ method: "HEAD", url: "/api/weight" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^application\/json/);
    expect(response.rawPayload.length).toBe(0);
  });

  it("refuses a missing scope with 403 naming it, before anything is forwarded", async () => {
    scopes = ["weight:read"];
    const response = await gateway.inject({ method: "POST", url: "/api/weight", headers: { "content-type": "application/json" }, payload: "{}" });
    expect(response.statusCode).toBe(403);
    expect(response.headers["www-authenticate"]).toBe('Bearer error="insufficient_scope", scope="weight:write"');
    expect(response.json()).toEqual({ error: "this credential lacks the weight:write scope" });
  });

  it("answers 404 in the envelope for a method or path that is not in the contracts", async () => {
    scopes = null;
    for (const [method, url] of [["DELETE", "/api/targets"], ["GET", "/api/weight/a/b"], ["GET", "/api/nope"]] as const) {
      const response = await gateway.inject({ method, url });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json()).toEqual({ error: "not found" });
    }
  });

  it("refuses a body over the limit with 413 without forwarding it", async () => {
    scopes = null;
    const response = await gateway.inject({
      method: "POST",
      url: "/api/weight",
      headers: { "content-type": "application/json" },
      payload: `{"note":"${"x".repeat(BODY_LIMIT)}"}`,
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ error: "request body is too large" });
  });

  it("lets an activity file past 64 KiB through on the upload route only, and refuses one past its own limit", async () => {
    scopes = null;
    const upload = operations.importWorkout.upload;
    const file = (bytes: number) => ({ method: "POST" as const, url: "/api/workouts/import", headers: { "content-type": "application/gpx+xml" }, payload: Buffer.alloc(bytes, 0x61) });
    const accepted = await gateway.inject(file(2 * BODY_LIMIT));
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json<Echo>().body).toHaveLength(2 * BODY_LIMIT);
    const refused = await gateway.inject(file(upload.limitBytes + 1));
    expect(refused.statusCode).toBe(413);
  });
});

/** A gateway forwarding every service's routes to `url`. */
const gatewayTo = async (url: string) => {
  const gateway = createHttpApp({ name: "gateway", logger: false, readiness: async () => {} });
  await gateway.register(async (api) => {
    api.addHook("onRequest", authenticatedAs(null));
    api.addHook("onRequest", authorize({ assertionSecret: secret }));
    await api.register(forwardRoutes, { upstreams: { "body-metrics": url, nutrition: url, workouts: url, insights: url, imports: url } });
  });
  return gateway;
};

describe("a service that is down", () => {
  it("is a 503 in the envelope", async () => {
    // Port 9 (discard) on loopback: nothing listens there.
    const gateway = await gatewayTo("http://127.0.0.1:9");
    try {
      const response = await gateway.inject({ method: "GET", url: "/api/weight" });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ error: "a service is unavailable" });
    } finally {
      await gateway.close();
    }
  });

  it("is a 503 in the envelope when it breaks off its answer half-way, with nothing of that answer sent", async () => {
    const upstream = createServer((_request, response) => {
      response.writeHead(201, { "content-type": "application/json", "content-length": "100" });
      response.write('{"id":"');
      setTimeout(() => response.socket?.destroy(), 20);
    });
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
    const gateway = await gatewayTo(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`);
    try {
      const response = await gateway.inject({ method: "GET", url: "/api/weight" });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ error: "a service is unavailable" });
    } finally {
      await gateway.close();
      upstream.close();
    }
  });
});
