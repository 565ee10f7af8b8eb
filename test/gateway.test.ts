import { afterAll, beforeAll, describe, expect, inject, it, onTestFinished } from "vitest";
import { toOpenApiPath } from "@fit/contracts";
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

/**
 * The gateway's routes as [method, path], from Fastify's tree listing: "│   └── /:id (PATCH)" is a child of the
 * line above it at the previous depth, so a route's path is its ancestors' segments joined.
 */
const registeredRoutes = () => {
  const stack: string[] = [];
  return system.apps.gateway
    .printRoutes({ commonPrefix: false })
    .split("\n")
    .flatMap((line) => {
      const match = /^([│ ]*)[├└]── (\S+)(?: \(([^)]+)\))?/.exec(line);
      if (!match) return [];
      const depth = match[1]!.length / 4;
      stack.length = depth;
      stack.push(match[2]!);
      const methods = (match[3] ?? "").split(", ").filter((method) => method && !["HEAD", "OPTIONS"].includes(method));
      return methods.map((method) => [method, stack.join("")] as const);
    });
};

describe("inventory", () => {
  it("documents every route the gateway serves in /openapi.json", async () => {
    const { body: document } = await client(system.url).get("/openapi.json");
    // Left out: catch-alls (unknown /api paths become an authenticated 404; other paths are the web app's client
    // routes and its hashed assets) and the web app's page at `/`, which are not API operations.
    const routes = registeredRoutes().filter(([, path]) => !path.endsWith("*") && path !== "/");
    expect(routes.length).toBeGreaterThan(20);
    for (const [method, path] of routes) {
      expect(document.paths[toOpenApiPath(path)]?.[method.toLowerCase()], `${method} ${path}`).toBeDefined();
    }
  });

  it("reaches only the operations in the contracts", async () => {
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

  it("counts a flood of unknown paths like any other use", async () => {
    const prober = client(system.url, (await system.account()).key);
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await prober.get(`/api/probe-${i}`)).status);
    expect(statuses).toEqual([404, 404, 404, 404, 404, 429]);
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

describe("a budget per purpose", () => {
  it("lets an address that spent its client-registration budget still sign in", async () => {
    // A system of its own: this spends the address's budgets, which the file's other tests count on.
    const own = await startSystem({
      databaseUrl: inject("databaseUrl"),
      natsUrl: inject("natsUrl"),
      env: { SIGN_IN_LIMIT_PER_ADDRESS: "2", REGISTRATION_LIMIT_PER_ADDRESS: "3" },
    });
    onTestFinished(() => own.stop());
    const anonymous = client(own.url);
    const registration = {
      redirect_uris: ["http://127.0.0.1:9/callback"], application_type: "native", token_endpoint_auth_method: "none",
      client_name: "flood", grant_types: ["authorization_code"], response_types: ["code"],
    };
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await anonymous.post("/api/auth/oauth2/register", registration)).status);
    expect(statuses).toEqual([201, 201, 201, 429]);
    const origin = { origin: new URL(own.url).origin };
    expect((await anonymous.post("/api/auth/sign-in/magic-link", { email: "after-flood@example.com" }, origin)).status).toBe(200);
  });
});

describe("a stopped service", () => {
  it("answers 503 in the envelope through the gateway", async () => {
    // A system of its own: stopping a service of the file's shared one would break every test after this one.
    const own = await startSystem({ databaseUrl: inject("databaseUrl"), natsUrl: inject("natsUrl") });
    onTestFinished(() => own.stop());
    const api = client(own.url, (await own.account()).key);
    await own.apps.bodyMetrics.close();
    const response = await api.get("/api/weight");
    expect(response.status).toBe(503);
    expect(response.body).toEqual({ error: "a service is unavailable" });
  });
});
