import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { startVitest } from "vitest/node";
import SummaryReporter from "../../src/summary-reporter.ts";

const fixture = (name: string) => fileURLToPath(new URL(`fixtures/${name}`, import.meta.url));

/** Runs one fixture file in a vitest of its own and returns the summary line the reporter wrote. */
const summaryOf = async (file: string) => {
  const written: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = (chunk: string | Uint8Array, ...rest: never[]) => {
    written.push(String(chunk));
    return write(chunk, ...rest);
  };
  const exitCode = process.exitCode;
  try {
    const vitest = await startVitest("test", [], {
      config: false,
      root: fileURLToPath(new URL(".", import.meta.url)),
      dir: fileURLToPath(new URL("fixtures", import.meta.url)),
      include: [file],
      reporters: [new SummaryReporter()],
      watch: false,
    });
    await vitest.close();
  } finally {
    process.stdout.write = write;
    // The inner run sets the exit code of its failures; they are this test's subject, not this run's.
    process.exitCode = exitCode;
  }
  return written.join("").trim().split("\n").at(-1);
};

describe("the summary line", () => {
  // The container tier printed "0 passed, 0 failed, 3 skipped" when its set-up failed (issue 36).
  it("counts a failed set-up as a failure, never as a clean line of skipped tests", async () => {
    expect(await summaryOf(fixture("failing-set-up.fixture.ts"))).toBe("0 passed, 1 failed, 3 skipped");
  });
});
