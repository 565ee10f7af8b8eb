// The servers' node flags and environment are spelled out where no code can import them (package scripts, the
// image); this keeps every copy equal to the one the launcher and the benchmarks use, and the embedded process's two.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SERVICE_ENV, SERVICE_NODE_FLAGS } from "../../src/service-node-flags.ts";

const root = new URL("../../../", import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), "utf8");
const services = ["gateway", "body-metrics", "nutrition", "workouts", "coach", "insights", "imports"];
const flags = SERVICE_NODE_FLAGS.join(" ");
const env = Object.entries(SERVICE_ENV).map(([name, value]) => `${name}=${value}`).join(" ");

describe("the node flags and environment the servers run with", () => {
  it("of every service are the same in pnpm start:<service>, each service's start and the image", () => {
    const rootScripts = (JSON.parse(read("package.json")) as { scripts: Record<string, string> }).scripts;
    for (const service of services) {
      expect(rootScripts[`start:${service}`]).toBe(`${env} node ${flags} services/${service}/dist/main.js`);
      const own = (JSON.parse(read(`services/${service}/package.json`)) as { scripts: Record<string, string> }).scripts;
      expect(own["start"]).toBe(`${env} node ${flags} dist/main.js`);
    }
    const dockerfile = read("infra/Dockerfile");
    expect(dockerfile).toContain(`exec node ${flags} services/\${SERVICE`);
    // As Docker reads them: every NAME=value of every ENV line, a later one winning.
    const imageEnv = Object.fromEntries(
      dockerfile.split("\n").filter((line) => line.startsWith("ENV ")).flatMap((line) => line.slice(4).trim().split(/\s+/).map((pair) => pair.split("="))),
    );
    for (const [name, value] of Object.entries(SERVICE_ENV)) expect(imageEnv[name]).toBe(value);
  });

  it("of the embedded process are the same in the root's start, the launcher's own and bin/start", () => {
    const rootStart = (JSON.parse(read("package.json")) as { scripts: Record<string, string> }).scripts["start"];
    const launcherStart = (JSON.parse(read("launcher/package.json")) as { scripts: Record<string, string> }).scripts["start"];
    expect(launcherStart?.replace(" dist/", " launcher/dist/")).toBe(rootStart);
    expect(read("bin/start").trimEnd().split("\n").at(-1)).toBe(`exec env ${rootStart}`);
  });
});
