import { defineConfig } from "vitest/config";

// The container tier (`pnpm test:containers`): the images built, the compose cluster started and torn down.
// Kept out of `pnpm test`, whose projects never include infra/test/containers.
export default defineConfig({
  test: {
    name: "containers",
    reporters: ["default", "./packages/testing/src/summary-reporter.ts"],
    root: new URL("../../../", import.meta.url).pathname,
    include: ["infra/test/containers/**/*.test.ts"],
    testTimeout: 240_000,
    // Building the base images and the service image on a fresh machine takes minutes.
    hookTimeout: 1_500_000,
  },
});
