// The service's node flags are spelled out where no code can import them (package scripts, the image's command);
// this keeps every copy equal to the one the launcher and the benchmarks use.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SERVICE_NODE_FLAGS } from "../../src/service-node-flags.ts";

const root = new URL("../../../", import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), "utf8");
const services = ["gateway", "body-metrics", "nutrition", "workouts", "coach"];
const flags = SERVICE_NODE_FLAGS.join(" ");

describe("the node flags every service runs with", () => {
  it("are the same in pnpm start:<service>, each service's start and the image's command", () => {
    const rootScripts = (JSON.parse(read("package.json")) as { scripts: Record<string, string> }).scripts;
    for (const service of services) {
      expect(rootScripts[`start:${service}`]).toBe(`node ${flags} services/${service}/dist/main.js`);
      const own = (JSON.parse(read(`services/${service}/package.json`)) as { scripts: Record<string, string> }).scripts;
      expect(own["start"]).toBe(`node ${flags} dist/main.js`);
    }
    expect(read("infra/Dockerfile")).toContain(`exec node ${flags} services/\${SERVICE`);
  });
});
