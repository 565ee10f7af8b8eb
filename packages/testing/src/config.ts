import { z } from "zod";

/** Where the test run was told to find its PostgreSQL and NATS, if anywhere. */
const TestEnv = z.object({
  TEST_DATABASE_URL: z.string().optional(),
  TEST_NATS_URL: z.string().optional(),
});
export type TestConfig = z.output<typeof TestEnv>;

export const loadTestConfig = (env: NodeJS.ProcessEnv = process.env): TestConfig => TestEnv.parse(env);
