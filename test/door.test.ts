// Regressions of what a new user or a hostile client hit at the door, each reproduced before it was fixed
// (docs/security.md: body limits, the assertion, rate limits, magic links, errors in the envelope).
import { createHmac } from "node:crypto";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ASSERTION_HEADER } from "@fit/service-kit";
import { client } from "./support/http.ts";
import { rawExchange, rawExchanges } from "./support/raw-http.ts";
import { startSystem, type System } from "./support/system.ts";

let system: System;
let api: ReturnType<typeof client>;

beforeAll(async () => {
  system = await startSystem({
    databaseUrl: inject("databaseUrl"),
    natsUrl: inject("natsUrl"),
    env: { REFUSED_LIMIT_PER_MINUTE: "20", SIGN_IN_LIMIT_PER_EMAIL: "2" },
  });
  api = client(system.url, (await system.account()).key);
});
afterAll(() => system?.stop());

const post = (path: string, headers: string, body: string) =>
  `POST ${path} HTTP/1.1\r\nHost: fit\r\n${headers}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

describe("bodies over the limit", () => {
  it("are a 413 in the envelope, with Expect: 100-continue too, and leave the connection usable or closed", async () => {
    const key = (await system.account()).key;
    const auth = `Authorization: Bearer ${key}\r\nContent-Type: application/json\r\n`;
    const big = JSON.stringify({ weightKg: 80, note: "x".repeat(1024 * 1024) });
    const expectContinue = await rawExchange(system.url, post("/api/weight", `${auth}Expect: 100-continue\r\n`, big));
    expect(expectContinue.status).toBe(413);
    expect(expectContinue.body).toEqual({ error: "request body is too large" });
    // Over the limit, then an ordinary request on the same connection: answered, never left hanging.
    const [tooLarge, next] = await rawExchanges(system.url, [post("/api/weight", auth, big), `GET /api/weight HTTP/1.1\r\nHost: fit\r\n${auth}\r\n`]);
    expect(tooLarge?.status).toBe(413);
    expect(next === undefined || next.status === 200).toBe(true);
    expect((await api.get("/api/weight")).body.items).toEqual([]);
  });

  it("do not disturb an ordinary write that asks for keep-alive", async () => {
    // Raw, because fetch refuses to send the hop-by-hop header that the forwarding client must drop.
    const key = (await system.account()).key;
    const headers = `Authorization: Bearer ${key}\r\nContent-Type: application/json\r\nConnection: keep-alive\r\nKeep-Alive: timeout=5\r\n`;
    const [logged, listed] = await rawExchanges(system.url, [
      post("/api/weight", headers, JSON.stringify({ weightKg: 79.5 })),
      `GET /api/weight HTTP/1.1\r\nHost: fit\r\n${headers}\r\n`,
    ]);
    expect(logged?.status).toBe(200);
    expect(listed).toMatchObject({ status: 200, body: { items: [{ weightKg: 79.5 }] } });
  });

  it("are cut at the limit when they arrive chunked, without a length", async () => {
    const chunk = "x".repeat(16 * 1024);
    const chunks = Array.from({ length: 8 }, () => `${chunk.length.toString(16)}\r\n${chunk}\r\n`).join("");
    const key = (await system.account()).key;
    const request = `POST /api/weight HTTP/1.1\r\nHost: fit\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${chunks}0\r\n\r\n`;
    expect(await rawExchange(system.url, request)).toEqual({ status: 413, body: { error: "request body is too large" } });
  });
});

describe("text PostgreSQL cannot store, and other hostile input", () => {
  it("refuses NUL in any string with a 400 and stores nothing", async () => {
    expect((await api.post("/api/weight", { weightKg: 80, note: "a\u0000b" })).status).toBe(400);
    const food = { date: "2026-11-23", name: "oat\u0000s", kcal: 100, proteinG: 3 };
    expect((await api.post("/api/nutrition/items", food)).body).toEqual({ error: "text must not contain NUL characters" });
    const logged = await api.post("/api/weight", { weightKg: 80 });
    expect((await api.patch(`/api/weight/${logged.body.id}`, { note: "\u0000" })).status).toBe(400);
    expect((await api.get("/api/measurements?site=waist%00")).body).toEqual({ error: "text must not contain NUL characters" });
    expect((await api.get("/api/weight")).body.items).toMatchObject([{ id: logged.body.id, note: null }]);
  });

  it("refuses a malformed escape in the query string with a 400", async () => {
    for (const query of ["x=%ZZ", "to=%C0%80", "%E0%A4%A=1"]) {
      expect(await api.get(`/api/weight?${query}`), query).toMatchObject({ status: 400, body: { error: "malformed URL" } });
    }
  });

  it("refuses a crafted cursor and a stack-deep body with a 400", async () => {
    expect((await api.get("/api/weight?cursor=WzEsImEiXQ")).body).toEqual({ error: "cursor is not valid" });
    const deep = `{"email":${"[".repeat(30_000)}${"]".repeat(30_000)}}`;
    const origin = { origin: new URL(system.url).origin };
    expect((await client(system.url).post("/api/auth/sign-in/magic-link", deep, origin)).status).toBe(400);
  });

  it("answers 414, 431 and a malformed request line in the envelope", async () => {
    const longPath = `DELETE /api/weight/${"a".repeat(5000)} HTTP/1.1\r\nHost: fit\r\n\r\n`;
    expect(await rawExchange(system.services.bodyMetrics, longPath)).toEqual({ status: 414, body: { error: "path is too long" } });
    // At the gateway an unknown path is first of all a request to authenticate.
    expect(await rawExchange(system.url, longPath)).toMatchObject({ status: 401 });
    const bigHeader = await rawExchange(system.url, `GET /api/weight HTTP/1.1\r\nHost: fit\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`);
    expect([bigHeader.status, bigHeader.body]).toEqual([431, { error: "request headers are too large" }]);
    const lowercase = await rawExchange(system.url, "delete /api/weight HTTP/1.1\r\nHost: fit\r\n\r\n");
    expect([lowercase.status, lowercase.body]).toEqual([400, { error: "malformed request" }]);
  });
});

describe("a slow client", () => {
  it("cannot hold a connection by dripping its headers", async () => {
    const { hostname, port } = new URL(system.url);
    const socket = net.connect(Number(port), hostname);
    socket.write("GET /api/weight HTTP/1.1\r\nHost: fit\r\n");
    const drip = setInterval(() => socket.write("X-Drip: 1\r\n"), 500);
    const started = Date.now();
    const answer = await new Promise<string>((resolve) => {
      let received = "";
      socket.on("data", (chunk: Buffer) => (received += chunk.toString()));
      socket.on("close", () => resolve(received));
      socket.on("error", () => resolve(received));
    });
    clearInterval(drip);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(answer).toContain('{"error":"request took too long to arrive"}');
  }, 20_000);
});

describe("a service's own door", () => {
  // Signed by hand with the real secret: only the claims are wrong.
  const sign = (claims: object) => {
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const unsigned = `${part({ alg: "HS256", typ: "JWT" })}.${part(claims)}`;
    const secret = system.env.INTERNAL_ASSERTION_SECRET;
    if (!secret) throw new Error("the system has no assertion secret");
    return `${unsigned}.${createHmac("sha256", secret).update(unsigned).digest("base64url")}`;
  };

  it("wants the assertion whatever the spelling of the path", async () => {
    for (const path of ["/%61pi/weight", "//api/weight", "/api/weight/", "/API/weight", "/nope"]) {
      const response = await rawExchange(system.services.bodyMetrics, `GET ${path} HTTP/1.1\r\nHost: fit\r\n\r\n`);
      expect(response, path).toEqual({ status: 401, body: { error: "missing internal assertion" } });
    }
  });

  it("refuses an assertion without audience or issued-at, or with a far expiry", async () => {
    const sub = (await system.account()).accountId;
    const base = { sub, email: "a@example.com", scopes: null, iss: "fit-gateway" };
    const now = Math.floor(Date.now() / 1000);
    for (const claims of [{ ...base, iat: now, exp: now + 60 }, { ...base, aud: "fit-services", exp: now + 60 }, { ...base, aud: "fit-services", iat: now, exp: now + 31 * 365 * 86_400 }]) {
      const response = await fetch(new URL("/api/weight", system.services.bodyMetrics), { headers: { [ASSERTION_HEADER]: sign(claims) } });
      expect(response.status, JSON.stringify(claims)).toBe(401);
    }
  });
});

describe("refused requests", () => {
  it("authenticate unknown paths and count every refusal per address, up to a 429", async () => {
    expect((await client(system.url).get("/api/nope")).status).toBe(401);
    expect((await api.get("/api/nope")).status).toBe(404);
    const guesser = client(system.url, `fit_${"A".repeat(64)}`);
    const statuses = [];
    for (let i = 0; i < 25; i++) statuses.push((await guesser.get("/api/weight")).status);
    expect(statuses.slice(0, 15).every((s) => s === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });

  it("never spend someone else's sign-in budget", async () => {
    const anonymous = client(system.url);
    for (let i = 0; i < 5; i++) {
      const foreign = await anonymous.post("/api/auth/sign-in/magic-link", { email: "victim@example.com" }, { origin: "https://evil.example" });
      expect(foreign.status).toBe(403);
    }
    const own = await anonymous.post("/api/auth/sign-in/magic-link", { email: "victim@example.com" }, { origin: new URL(system.url).origin });
    expect(own.status).toBe(200);
  });
});
