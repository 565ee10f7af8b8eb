// axe-core run in the page under test: its source is evaluated through the DevTools protocol, which the page's
// Content-Security-Policy does not govern, so the strict policy stays as deployed and reports nothing.
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import type { AxeResults } from "axe-core";
import type { Page } from "playwright-core";

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const FAILING_IMPACTS = new Set(["serious", "critical"]);

/** Fails listing each serious or critical violation on the page as it stands: rule id, impact and the elements. */
export const expectNoSeriousViolations = async (page: Page, screen: string): Promise<void> => {
  if (!(await page.evaluate("typeof window.axe === 'object'"))) await page.evaluate(axeSource);
  const results = await page.evaluate<AxeResults>("window.axe.run(document, { resultTypes: ['violations'] })");
  const serious = results.violations.filter((violation) => FAILING_IMPACTS.has(violation.impact ?? ""));
  if (serious.length === 0) return;
  const lines = serious.flatMap((violation) =>
    violation.nodes.map((node) => `${violation.id} (${violation.impact}) at ${node.target.join(" ")}: ${violation.help}`));
  throw new Error(`${screen}: ${serious.length} serious or critical accessibility violation(s):\n${lines.join("\n")}`);
};
