import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { allEndpoints, busAccess, identityEvents, streamEventsOf, type BusUser } from "@fit/contracts";
import { connect, ErrorCode, Events, NatsError, type NatsConnection } from "nats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "@fit/testing";
import { connectNatsBus, inboxPrefixOf, natsAuthorization, natsPasswordVariable, type Bus } from "../../src/index.ts";
import { captureLogger } from "../support.ts";

// A nats-server of its own with the users infra/nats/authorization.conf gives each service (issue 36): what a
// service does on the bus works as its user, and what another service's subjects hold is refused.
const services = Object.keys(busAccess) as BusUser[];
const password = (service: BusUser) => `test-${service}-password`;
const serverBinary = process.env.NATS_SERVER_BIN ?? "nats-server";

let server: ChildProcess;
let dir = "";
let url = "";
const connections: NatsConnection[] = [];
const buses: Bus[] = [];

/** A plain connection as `service`'s user, with the inbox prefix its permissions allow. */
const as = async (service: BusUser) => {
  const nc = await connect({ servers: url, user: service, pass: password(service), inboxPrefix: inboxPrefixOf(service), maxReconnectAttempts: 0 });
  connections.push(nc);
  return nc;
};
const busAs = async (service: BusUser) => {
  const bus = await connectNatsBus({
    url,
    name: service,
    logger: captureLogger().logger,
    streams: streamEventsOf(service),
    credentials: { user: service, password: password(service), inboxPrefix: inboxPrefixOf(service) },
  });
  buses.push(bus);
  return bus;
};

const isViolation = (err: unknown, subject: string) =>
  err instanceof NatsError && err.code === String(ErrorCode.PermissionsViolation) && err.permissionContext?.subject === subject;

/** Whether the server refuses `nc` a subscription to `subject`. */
const subscriptionRefused = async (nc: NatsConnection, subject: string) => {
  let refused = false;
  nc.subscribe(subject, { callback: (err) => void (refused ||= isViolation(err, subject)) });
  await nc.flush();
  await new Promise((resolve) => setTimeout(resolve, 50));
  return refused;
};

/** Whether the server refuses `nc` a publish to `subject` (it says so asynchronously, as a status error). */
const publishRefused = async (nc: NatsConnection, subject: string) => {
  let refused = false;
  const watching = (async () => {
    for await (const s of nc.status()) {
      const { permissionContext } = s as { permissionContext?: { subject: string } };
      if (s.type === Events.Error && s.data === ErrorCode.PermissionsViolation && permissionContext?.subject === subject) refused = true;
    }
  })();
  nc.publish(subject, "x");
  await nc.flush();
  await new Promise((resolve) => setTimeout(resolve, 50));
  void watching;
  return refused;
};

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "fit-nats-permissions-"));
  const port = await freePort();
  url = `nats://127.0.0.1:${port}`;
  await writeFile(path.join(dir, "authorization.conf"), natsAuthorization());
  await writeFile(path.join(dir, "server.conf"), `port: ${port}\nhost: 127.0.0.1\njetstream { store_dir: "${dir}/js" }\ninclude ./authorization.conf\n`);
  const env = { ...process.env, ...Object.fromEntries(services.map((s) => [natsPasswordVariable(s), password(s)])) };
  server = spawn(serverBinary, ["-c", path.join(dir, "server.conf")], { env, stdio: ["ignore", "ignore", "pipe"] });
  let log = "";
  server.stderr!.on("data", (chunk: Buffer) => (log += chunk.toString()));
  const deadline = Date.now() + 20_000;
  for (;;) {
    const nc = await connect({ servers: url, user: "coach", pass: password("coach"), maxReconnectAttempts: 0 }).catch(() => null);
    if (nc) {
      await nc.close();
      break;
    }
    if (Date.now() > deadline || server.exitCode !== null) throw new Error(`nats-server did not start: ${log}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
});

afterAll(async () => {
  await Promise.all(buses.map((b) => b.close().catch(() => undefined)));
  await Promise.all(connections.map((c) => c.close().catch(() => undefined)));
  server?.kill();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("NATS with a user per service", () => {
  it("refuses a connection without credentials, and one with another service's password", async () => {
    await expect(connect({ servers: url, maxReconnectAttempts: 0 })).rejects.toMatchObject({ code: ErrorCode.AuthorizationViolation });
    await expect(connect({ servers: url, user: "gateway", pass: password("coach"), maxReconnectAttempts: 0 })).rejects.toMatchObject({
      code: ErrorCode.AuthorizationViolation,
    });
  });

  it("lets every service connect as its user, ensure its streams and pass the readiness ping", async () => {
    for (const service of services) await (await busAs(service)).ping();
  });

  it("carries each question from each service that asks it to the service that answers it, and from nobody else", async () => {
    const ncs = Object.fromEntries(await Promise.all(services.map(async (s) => [s, await as(s)] as const))) as Record<BusUser, NatsConnection>;
    for (const endpoint of allEndpoints) {
      const responder = ncs[endpoint.service as BusUser];
      responder.subscribe(endpoint.subject, { queue: endpoint.service, callback: (_, msg) => msg.respond("answered") });
      await responder.flush();
      const askers = services.filter((s) => (busAccess[s].asks as readonly unknown[]).includes(endpoint));
      expect(askers.length, endpoint.subject).toBeGreaterThan(0);
      for (const asker of askers) {
        expect((await ncs[asker].request(endpoint.subject, "q", { timeout: 2_000 })).string(), `${asker} asks ${endpoint.subject}`).toBe("answered");
      }
      for (const other of services.filter((s) => !askers.includes(s) && s !== endpoint.service)) {
        expect(await publishRefused(ncs[other], endpoint.subject), `${other} may not ask ${endpoint.subject}`).toBe(true);
        expect(await subscriptionRefused(ncs[other], endpoint.subject), `${other} may not listen on ${endpoint.subject}`).toBe(true);
      }
    }
  });

  it("keeps every export and every other service's inbox from a service that would read them", async () => {
    const coach = await as("coach");
    for (const subject of ["body-metrics.export.weigh-ins", "nutrition.export.food-items", "*.export.*", ">", "_INBOX.>", `${inboxPrefixOf("gateway")}.>`]) {
      expect(await subscriptionRefused(coach, subject), subject).toBe(true);
    }
  });

  it("lets the publisher of an event publish it and each consumer read it through its durable, and no one else", async () => {
    const gateway = await busAs("gateway");
    const accountId = randomUUID();
    await gateway.publish(identityEvents.accountDeleted.subject, { id: randomUUID(), type: identityEvents.accountDeleted.subject, occurredAt: new Date().toISOString(), data: { accountId } });
    const consumers = services.filter((s) => busAccess[s].consumes.some((c) => c.event === identityEvents.accountDeleted));
    expect(consumers.sort()).toEqual(["body-metrics", "coach", "imports", "insights", "nutrition", "workouts"]);
    for (const service of consumers) {
      const bus = await busAs(service);
      const { durable } = busAccess[service].consumes.find((c) => c.event === identityEvents.accountDeleted)!;
      const seen = await new Promise<string>((resolve, reject) => {
        void bus.subscribe(identityEvents.accountDeleted, durable, async ({ data }) => resolve(data.accountId)).catch(reject);
      });
      expect(seen, service).toBe(accountId);
      // Another durable name, or another service's, is not this user's to create.
      await expect(bus.subscribe(identityEvents.accountDeleted, `${durable}-x`, async () => {})).rejects.toThrow();
    }
    const coach = await busAs("coach");
    await expect(
      coach.publish(identityEvents.accountDeleted.subject, { id: randomUUID(), type: "x", occurredAt: new Date().toISOString(), data: { accountId } }),
    ).rejects.toThrow();
    for (const subject of ["body-metrics.weight.logged", "nutrition.item.logged", "body-metrics.weight.ingest"]) {
      expect(await publishRefused(await as("coach"), subject), subject).toBe(true);
    }
  });

  it("lets only the gateway read and write the rate-limit counters", async () => {
    const [bucket] = busAccess.gateway.buckets;
    const counters = await (await busAs("gateway")).keyValue(bucket!, { maxAgeMs: 60_000 });
    expect(await counters.compareAndSet("k", "1", null)).not.toBeNull();
    expect((await counters.get("k"))?.value).toBe("1");
    for (const service of services.filter((s) => s !== "gateway")) {
      await expect((await busAs(service)).keyValue(bucket!, { maxAgeMs: 60_000 })).rejects.toThrow();
      const nc = await as(service);
      expect(await publishRefused(nc, `$KV.${bucket}.k`), service).toBe(true);
      expect(await publishRefused(nc, `$JS.API.STREAM.PURGE.KV_${bucket}`), service).toBe(true);
      expect(await publishRefused(nc, `$JS.API.STREAM.DELETE.KV_${bucket}`), service).toBe(true);
    }
    expect((await counters.get("k"))?.value).toBe("1");
  });

  it("lets only the gateway broadcast and hear credential revocations", async () => {
    const [subject] = busAccess.gateway.broadcasts;
    const gateway = await busAs("gateway");
    const heard = new Promise<string>((resolve) => void gateway.listen(subject!, resolve, () => undefined));
    await gateway.broadcast(subject!, "revoked");
    expect(await heard).toBe("revoked");
    const coach = await as("coach");
    expect(await publishRefused(coach, subject!)).toBe(true);
    expect(await subscriptionRefused(coach, subject!)).toBe(true);
  });
});
