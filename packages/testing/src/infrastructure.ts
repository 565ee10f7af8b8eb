import net from "node:net";
import { getContainerRuntimeClient, type StartedTestContainer } from "testcontainers";
import { loadTestConfig, type TestConfig } from "./config.ts";

/**
 * Where integration tests find PostgreSQL and NATS (the README's Tests section): the URLs named by
 * TEST_DATABASE_URL / TEST_NATS_URL; else containers when a container runtime answers; else the machine's
 * own services on their standard ports; else a clear failure naming what was looked for.
 */
export interface Infrastructure {
  databaseUrl: string;
  natsUrl: string;
  stop(): Promise<void>;
}

const LOCAL_POSTGRES = "postgres://postgres@127.0.0.1:5432/postgres";
const LOCAL_NATS = "nats://127.0.0.1:4222";

const reachable = (host: string, port: number, timeoutMs = 1000) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });

const containerRuntimeAnswers = async () => {
  try {
    await getContainerRuntimeClient();
    return true;
  } catch {
    return false;
  }
};

const startContainers = async () => {
  const [{ PostgreSqlContainer }, { NatsContainer }] = await Promise.all([
    import("@testcontainers/postgresql"),
    import("@testcontainers/nats"),
  ]);
  const pg = await new PostgreSqlContainer("postgres:16-alpine").start();
  const nats = await new NatsContainer("nats:2.10-alpine").withJetStream().start();
  const started: StartedTestContainer[] = [pg, nats];
  return {
    databaseUrl: pg.getConnectionUri(),
    natsUrl: `nats://${nats.getHost()}:${nats.getMappedPort(4222)}`,
    stop: async () => {
      await Promise.all(started.map((c) => c.stop()));
    },
  };
};

export const findInfrastructure = async (config: TestConfig = loadTestConfig()): Promise<Infrastructure> => {
  if (config.TEST_DATABASE_URL && config.TEST_NATS_URL) {
    return { databaseUrl: config.TEST_DATABASE_URL, natsUrl: config.TEST_NATS_URL, stop: async () => {} };
  }
  if (await containerRuntimeAnswers()) return startContainers();
  const [pg, nats] = await Promise.all([reachable("127.0.0.1", 5432), reachable("127.0.0.1", 4222)]);
  if (pg && nats) {
    return {
      databaseUrl: config.TEST_DATABASE_URL ?? LOCAL_POSTGRES,
      natsUrl: config.TEST_NATS_URL ?? LOCAL_NATS,
      stop: async () => {},
    };
  }
  throw new Error(
    "Integration tests need PostgreSQL and NATS (JetStream). Looked for: TEST_DATABASE_URL and TEST_NATS_URL; " +
      "a container runtime for testcontainers (none answered); PostgreSQL on 127.0.0.1:5432 " +
      `(${pg ? "found" : "not found"}) and NATS on 127.0.0.1:4222 (${nats ? "found" : "not found"}).`,
  );
};
