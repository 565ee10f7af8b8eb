import { defineConfig } from "vitest/config";

// Two tiers: `unit` needs no server (PGlite, the in-process bus); `integration` talks to a real PostgreSQL and
// NATS (found by @fit/testing) and goes through the gateway over HTTP.
export default defineConfig({
  test: {
    reporters: ["default", "./packages/testing/src/summary-reporter.ts"],
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["{packages,services}/*/test/unit/**/*.test.ts", "launcher/test/unit/**/*.test.ts", "infra/test/unit/**/*.test.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["{packages,services}/*/test/integration/**/*.test.ts", "launcher/test/integration/**/*.test.ts", "test/**/*.test.ts"],
          globalSetup: ["packages/testing/src/global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
