// Two gateway replicas on one NATS and one database count against the same limits
// (docs/decisions/0023-shared-rate-limit-counters.md): the second replica is a process of its own, started as
// production starts one, beside the test's in-process platform.
import { afterAll, beforeAll, describe, expect, inject, it, onTestFinished } from "vitest";
import { client } from "./support/http.ts";
import { startPrivateNats } from "./support/nats-server.ts";
import { startReplica } from "./support/gateway-replica.ts";
import { startSystem, type System } from "./support/system.ts";
import { waitFor } from "./support/wait.ts";

const LIMITS = { RATE_LIMIT_PER_MINUTE: "10", REFUSED_LIMIT_PER_MINUTE: "6", SIGN_IN_LIMIT_PER_EMAIL: "3", SIGN_IN_LIMIT_PER_ADDRESS: "100" };

const statusesOf = async (count: number, send: () => Promise<{ status: number; headers: Headers }>) => {
  const responses = [];
  for (let i = 0; i < count; i++) responses.push(await send());
  return responses;
};

describe("two gateway replicas on one NATS", () => {
  let system: System;
  let replica: Awaited<ReturnType<typeof startReplica>>;

  beforeAll(async () => {
    system = await startSystem({ databaseUrl: inject("databaseUrl"), natsUrl: inject("natsUrl"), env: LIMITS });
    replica = await startReplica(system);
  }, 60_000);
  afterAll(async () => {
    await replica?.stop();
    await system?.stop();
  });

  it("hold an account to one limit between them: 6 requests on each, the 11th and 12th refused", async () => {
    const { key } = await system.account();
    const one = await statusesOf(6, () => client(system.url, key).get("/api/targets"));
    const two = await statusesOf(6, () => client(replica.url, key).get("/api/targets"));
    expect([...one, ...two].map((r) => r.status)).toEqual([...Array(10).fill(200), 429, 429]);
    for (const refused of two.slice(4)) expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another account still has its whole budget.
    expect((await client(replica.url, (await system.account()).key).get("/api/targets")).status).toBe(200);
  });

  it("hold an email to one sign-in limit between them", async () => {
    const ask = (url: string) =>
      client(url).post("/api/auth/sign-in/magic-link", { email: "shared@example.com" }, { origin: new URL(system.url).origin });
    const responses = [...(await statusesOf(2, () => ask(system.url))), ...(await statusesOf(2, () => ask(replica.url)))];
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    expect(Number(responses[3]!.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("hold a client address to one limit of refused requests between them", async () => {
    const guess = (url: string) => client(url, `fit_${"B".repeat(64)}`).get("/api/weight");
    const responses = [...(await statusesOf(4, () => guess(system.url))), ...(await statusesOf(4, () => guess(replica.url)))];
    expect(responses.map((r) => r.status)).toEqual([401, 401, 401, 401, 401, 401, 429, 429]);
    expect(Number(responses[7]!.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("a NATS outage", () => {
  it("keeps every replica limiting on its own, with a warning, and the limits are shared again once NATS is back", async () => {
    const nats = await startPrivateNats();
    onTestFinished(() => nats.close());
    const system = await startSystem({ databaseUrl: inject("databaseUrl"), natsUrl: nats.url, env: { RATE_LIMIT_PER_MINUTE: "4" } });
    onTestFinished(() => system.stop());
    // At info, so that the note of sharing resumed is in its log too.
    const replica = await startReplica(system, "info");
    onTestFinished(() => replica.stop());
    const ready = (url: string, status: number) =>
      waitFor(`${url}/readyz to answer ${status}`, async () => ((await fetch(`${url}/readyz`)).status === status ? true : undefined));

    await nats.stop("SIGKILL");
    await Promise.all([ready(system.url, 503), ready(replica.url, 503)]);
    const { key } = await system.account();
    for (const url of [system.url, replica.url]) {
      const responses = await statusesOf(5, () => client(url, key).get("/api/nothing-here"));
      expect(responses.map((r) => r.status), url).toEqual([404, 404, 404, 404, 429]);
      expect(Number(responses[4]!.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    expect(replica.log()).toMatch(/rate-limit counters unreachable/);

    await nats.start();
    await Promise.all([ready(system.url, 200), ready(replica.url, 200)]);
    const fresh = (await system.account()).key;
    const one = await statusesOf(3, () => client(system.url, fresh).get("/api/nothing-here"));
    const two = await statusesOf(3, () => client(replica.url, fresh).get("/api/nothing-here"));
    expect([...one, ...two].map((r) => r.status)).toEqual([404, 404, 404, 404, 429, 429]);
    await waitFor("the replica to say so", async () => (/rate-limit counters are shared again/.test(replica.log()) ? true : undefined));
  }, 90_000);
});
