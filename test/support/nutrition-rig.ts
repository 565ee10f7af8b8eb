// Everything one fault test breaks, built for that test alone: its own database (behind a proxy that can freeze
// a transaction), its own nats-server and the nutrition service in its own process. A test that kills or stops
// any of them leaves nothing broken for the next one, and all of it is removed when the test ends.
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { createTestDatabase, uniqueTag } from "@fit/testing";
import { inject, onTestFailed, onTestFinished } from "vitest";
import { connectJetStream } from "./jetstream-probe.ts";
import { startPrivateNats } from "./nats-server.ts";
import { readNutritionSchema } from "./nutrition-schema.ts";
import { startPgProxy } from "./pg-proxy.ts";
import { startServiceProcess, type ServiceProcess } from "./service-process.ts";

const ROLLUP_DURABLES = ["nutrition-rollup-logged", "nutrition-rollup-updated", "nutrition-rollup-deleted"] as const;
type RollupDurable = (typeof ROLLUP_DURABLES)[number];

/** Call inside a test: the rig is torn down when that test finishes, and the service's log printed if it failed. */
export const startNutritionRig = async () => {
  // Each step on its own, last created first: one failing must not leave a process or server behind.
  const teardown: (() => Promise<unknown> | undefined)[] = [];
  onTestFinished(async () => {
    for (const step of teardown.reverse()) await Promise.resolve().then(step).catch((err: unknown) => console.error("teardown step failed", err));
  });
  let nutrition: ServiceProcess | undefined;
  onTestFailed(() => console.error(`--- nutrition log (last lines) ---\n${nutrition?.log().split("\n").slice(-30).join("\n") ?? "(not running)"}`));

  const database = await createTestDatabase(inject("databaseUrl"));
  teardown.push(() => database.drop());
  const dataDir = await mkdtemp(join(tmpdir(), "fit-faults-"));
  teardown.push(() => rm(dataDir, { recursive: true, force: true }));
  const nats = await startPrivateNats();
  teardown.push(() => nats.close());
  const proxy = await startPgProxy(database.url);
  teardown.push(() => proxy.close());
  const js = await connectJetStream(nats.url);
  teardown.push(() => js.close());
  teardown.push(() => nutrition?.kill("SIGKILL"));
  const sql = new pg.Client({ connectionString: database.url, options: "-c search_path=nutrition" });
  await sql.connect();
  teardown.push(() => sql.end());

  const namespace = uniqueTag("faults");
  const secret = randomBytes(32).toString("hex");
  const stream = `${namespace}_NUTRITION`;
  const consumer = (durable: RollupDurable) => js.consumer(stream, durable);

  const killNutrition = async () => {
    await nutrition?.kill("SIGKILL");
  };
  /**
   * Starts the service (killing a running one first). `ackWaitMs` shortens the durables' ack_wait AFTER the
   * service has set its own (30 s), only so that an event a killed process held unacknowledged is redelivered
   * within the test's time budget; the redelivery itself is the server's ordinary behaviour.
   */
  const startNutrition = async ({ ackWaitMs }: { ackWaitMs?: number } = {}) => {
    await killNutrition();
    nutrition = await startServiceProcess("services/nutrition/src/main.ts", {
      DATABASE_URL: proxy.url(database.url),
      NATS_URL: nats.url,
      NATS_NAMESPACE: namespace,
      INTERNAL_ASSERTION_SECRET: secret,
      LOG_LEVEL: "warn",
      DATA_DIR: dataDir,
    });
    if (ackWaitMs) for (const durable of ROLLUP_DURABLES) await js.setAckWait(stream, durable, ackWaitMs);
  };
  await startNutrition();

  return {
    secret,
    /** The running service's URL: it changes when the service is started again. */
    url: () => {
      if (!nutrition) throw new Error("the nutrition service is not running");
      return nutrition.url;
    },
    startNutrition,
    killNutrition,
    nats,
    proxy,
    db: readNutritionSchema(sql),
    /** Publishes `payload` on the service's `subject` (namespaced as the service does) under `msgID`. */
    publish: (subject: string, payload: unknown, msgID: string) => js.publish(`${namespace}.${subject}`, payload, msgID),
    consumer,
    consumers: () => Promise.all(ROLLUP_DURABLES.map(consumer)),
  };
};

export type NutritionRig = Awaited<ReturnType<typeof startNutritionRig>>;
