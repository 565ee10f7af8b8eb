import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { client } from "./support/http.ts";
import { startSystem, type System } from "./support/system.ts";

let system: System;

beforeAll(async () => {
  system = await startSystem({
    databaseUrl: inject("databaseUrl"),
    natsUrl: inject("natsUrl"),
    env: { RATE_LIMIT_PER_MINUTE: "5", SIGN_IN_LIMIT_PER_EMAIL: "2", SIGN_IN_LIMIT_PER_ADDRESS: "4" },
  });
});
afterAll(() => system?.stop());

/** The gateway's own (non-wildcard) routes as Fastify lists them: "├── /path (GET, HEAD)". */
const registeredRoutes = () =>
  system.apps.gateway
    .printRoutes({ commonPrefix: false })
    .split("\n")
    .map((line) => /── (\/\S*) \(([^)]+)\)/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null && m[1] !== "/")
    .flatMap((m) => m[2]!.split(", ").filter((method) => !["HEAD", "OPTIONS"].includes(method)).map((method) => [method, m[1]!] as const));

describe("inventory", () => {
  it("documents every route the gateway serves in /openapi.json", async () => {
    const { body: document } = await client(system.url).get("/openapi.json");
    const proxied = new Set(["/api/weight", "/api/measurements", "/api/targets", "/api/nutrition"]);
    const routes = registeredRoutes().filter(([, path]) => !proxied.has(path));
    expect(routes.length).toBeGreaterThan(5);
    for (const [method, path] of routes) {
      expect(document.paths[path]?.[method.toLowerCase()], `${method} ${path}`).toBeDefined();
    }
  });

  it("forwards only the operations in the contracts under a proxied prefix", async () => {
    const api = client(system.url, (await system.account()).key);
    expect((await api.put("/api/nutrition/items", {})).status).toBe(404);
    expect((await api.get("/api/weight/extra/segments")).status).toBe(404);
  });
});

describe("rate limits", () => {
  it("answers 429 with Retry-After once an account exceeds its limit, and only that account", async () => {
    const noisy = client(system.url, (await system.account()).key);
    const quiet = client(system.url, (await system.account()).key);
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await noisy.get("/api/targets")).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const limited = await noisy.get("/api/targets");
    expect(limited.body.error).toMatch(/too many requests/);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await quiet.get("/api/targets")).status).toBe(200);
  });

  it("limits sign-in links per email and per client address", async () => {
    const anonymous = client(system.url);
    const origin = { origin: new URL(system.url).origin };
    const ask = (email: string) => anonymous.post("/api/auth/sign-in/magic-link", { email }, origin);
    const first = await ask("flood@example.com");
    expect(first.body).toEqual({ status: true });
    expect((await ask("flood@example.com")).status).toBe(200);
    expect((await ask("FLOOD@example.com")).status).toBe(429);
    expect((await ask("other@example.com")).status).toBe(200);
    const fromSameAddress = await ask("third@example.com");
    expect(fromSameAddress.status).toBe(429);
    expect(fromSameAddress.headers.get("retry-after")).not.toBeNull();
    // A client-set X-Forwarded-For does not buy a fresh budget.
    expect((await anonymous.post("/api/auth/sign-in/magic-link", { email: "fourth@example.com" }, { ...origin, "x-forwarded-for": "203.0.113.9" })).status).toBe(429);
  });
});

describe("a stopped service", () => {
  it("answers 503 in the envelope through the gateway", async () => {
    const api = client(system.url, (await system.account()).key);
    await system.apps.bodyMetrics.close();
    const response = await api.get("/api/weight");
    expect(response.status).toBe(503);
    expect(response.body).toEqual({ error: "a service is unavailable" });
  });
});
