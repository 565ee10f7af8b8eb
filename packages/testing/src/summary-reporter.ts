import type { Reporter, TestModule, TestSuite } from "vitest/node";
import type { SerializedError } from "vitest";

/**
 * Ends the run with one plain line, "N passed, N failed, N skipped", that any CI can read whatever
 * reporter it knows. A set-up that failed (a beforeAll, a file that would not load, an error outside any test)
 * counts as a failure: its tests are only skipped, and the line must never read clean when the run was not.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: readonly TestModule[], unhandledErrors: readonly SerializedError[] = []) {
    const counts = { passed: 0, failed: unhandledErrors.length, skipped: 0 };
    const suites = (module: TestModule): (TestModule | TestSuite)[] => [module, ...module.children.allSuites()];
    for (const module of modules) {
      counts.failed += suites(module).filter((suite) => suite.errors().length > 0).length;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") counts.passed++;
        else if (state === "failed") counts.failed++;
        else counts.skipped++;
      }
    }
    process.stdout.write(`\n${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`);
  }
}
