import fc from "fast-check";
import { afterAll, beforeAll, describe, inject, it } from "vitest";
import { client } from "./support/http.ts";
import { bodyCommands } from "./support/model/body-commands.ts";
import { foodCommands } from "./support/model/food-commands.ts";
import { AccountModel, Model } from "./support/model/model.ts";
import { probeCommands } from "./support/model/probe-commands.ts";
import { startSystem, type System } from "./support/system.ts";

/*
 * A stateful model-based property: random sequences of writes by two accounts through the gateway over real
 * HTTP, each followed by every read the accounts have, compared with a plain in-memory model
 * (test/support/model/). Run on both ways the platform runs: PostgreSQL + NATS, and embedded (PGlite + one
 * in-process bus), since the embedded mode is what `pnpm start` gives a newcomer.
 * Reproduce a failure with FC_SEED=<seed>, adding FC_PATH=<path> and FC_REPLAY=<replayPath> (both printed in
 * the failure) to replay the shrunk counterexample at once.
 */
const NUM_RUNS = 15;
const MAX_COMMANDS = 25;
// Each run drives a few hundred requests per account: above the default per-account limit of 600 a minute,
// which is not what this test is about (gateway.test.ts covers it).
const env = { RATE_LIMIT_PER_MINUTE: "1000000" };

const modes = [
  { mode: "PostgreSQL + NATS", start: () => startSystem({ databaseUrl: inject("databaseUrl"), natsUrl: inject("natsUrl"), env }) },
  { mode: "embedded (PGlite + in-process bus)", start: () => startSystem({ embedded: true, env }) },
];

describe.each(modes)("the API against its model, $mode", ({ start }) => {
  let system: System;
  beforeAll(async () => {
    system = await start();
  });
  afterAll(() => system?.stop());

  it("answers every read as the model does after every write, and another account's ids with 404", async () => {
    const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) : Math.floor(Math.random() * 2 ** 31);
    const setup = async () => {
      // Fresh accounts per run: every run starts from an empty model.
      const [a, b] = await Promise.all([system.account(), system.account()]);
      return {
        model: new Model([new AccountModel(a.email), new AccountModel(b.email)]),
        real: { apis: [client(system.url, a.key), client(system.url, b.key)] as const },
      };
    };
    const property = fc.asyncProperty(
      fc.commands([fc.oneof(...bodyCommands, ...foodCommands, ...probeCommands)], {
        maxCommands: MAX_COMMANDS,
        size: "max", // the default size draws mostly 0 to 5 commands: too shallow to reach deep states
        ...(process.env.FC_REPLAY && { replayPath: process.env.FC_REPLAY }),
      }),
      (commands) => fc.asyncModelRun(setup, commands),
    );
    const started = Date.now();
    try {
      await fc.assert(property, { numRuns: NUM_RUNS, seed, ...(process.env.FC_PATH && { path: process.env.FC_PATH }) });
    } catch (error) {
      // fast-check's message names seed and path too; this line makes the seed impossible to miss.
      console.error(`api-model failed with FC_SEED=${seed}`);
      throw error;
    }
    console.info(`api-model: ${NUM_RUNS} runs of up to ${MAX_COMMANDS} commands, seed ${seed}, ${Date.now() - started} ms`);
  }, 110_000);
});
