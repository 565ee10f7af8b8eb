import { z } from "zod";

/** Where the test run was told to find its PostgreSQL and NATS, if anywhere. */
const TestEnv = z.object({
  TEST_DATABASE_URL: z.string().optional(),
  TEST_NATS_URL: z.string().optional(),
});
export type TestConfig = z.output<typeof TestEnv>;

export const loadTestConfig = (env: NodeJS.ProcessEnv = process.env): TestConfig => TestEnv.parse(env);

/**
 * testcontainers reads its settings from the environment only. Ryuk, its reaper, is an image of its own that
 * cannot be had without a registry, so it is off unless the run says otherwise; the containers are stopped in
 * teardown instead (global-setup.ts returns stop()).
 */
export const configureTestcontainers = (env: NodeJS.ProcessEnv = process.env) => {
  env["TESTCONTAINERS_RYUK_DISABLED"] ??= "true";
};
