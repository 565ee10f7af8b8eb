import { readFileSync } from "node:fs";
import net from "node:net";
import { GenericContainer, getContainerRuntimeClient, Wait, type StartedTestContainer } from "testcontainers";
import { configureTestcontainers, loadTestConfig, type TestConfig } from "./config.ts";

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

/**
 * The image names infra/images/images.env lists: the compose file's, and those build-base-images.sh gives its
 * stand-ins where no registry is reachable.
 */
const images = () => {
  const lines = readFileSync(new URL("../../../infra/images/images.env", import.meta.url), "utf8").split("\n");
  const named = new Map(lines.map((line) => line.split("=", 2) as [string, string | undefined]));
  const image = (name: string) => {
    const value = named.get(name);
    if (!value) throw new Error(`infra/images/images.env names no ${name}`);
    return value;
  };
  return { postgres: image("POSTGRES_IMAGE"), nats: image("NATS_IMAGE") };
};

const startContainers = async () => {
  configureTestcontainers();
  const { postgres, nats } = images();
  const { PostgreSqlContainer } = await import("@testcontainers/postgresql");
  const started: StartedTestContainer[] = [];
  const stop = () => Promise.all(started.map((c) => c.stop())).then(() => undefined);
  try {
    const [pg, bus] = await Promise.all([
      // Docker's default 64 MB of /dev/shm is too little for the suite's parallel databases (PostgreSQL's
      // dynamic shared memory lives there).
      new PostgreSqlContainer(postgres)
        .withSharedMemorySize(512 * 1024 * 1024)
        .start()
        .then((c) => (started.push(c), c)),
      // Plain: the NATS module's container requires a user and password, which the services' NATS_URL carries not.
      new GenericContainer(nats)
        .withCommand(["-js"])
        .withExposedPorts(4222)
        .withWaitStrategy(Wait.forLogMessage(/Server is ready/))
        .start()
        .then((c) => (started.push(c), c)),
    ]);
    return { databaseUrl: pg.getConnectionUri(), natsUrl: `nats://${bus.getHost()}:${bus.getMappedPort(4222)}`, stop };
  } catch (error) {
    await stop();
    throw error;
  }
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
