// The web app in a real browser (Debian's Chromium driven by Playwright) against the whole platform: sign-in
// through the printed magic link, logging and editing, the dashboard following, an API key created in Settings
// and used from outside, and the layout at desktop and phone width compared with a recorded baseline.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { printedLink } from "./support/sign-in.ts";
import { startSystem, type System } from "./support/system.ts";
import { ensureWebAppBuilt, firstLoadJsGzipBytes, launchChromium } from "./support/web-app.ts";

const BUDGET_BYTES = 150 * 1024;
const LAYOUT_BASELINE = new URL("./web-app-layout.json", import.meta.url);
const SCREENSHOTS = new URL("../docs/images/", import.meta.url);
/** UPDATE_WEB_BASELINE=1 records the layout baseline and the README's screenshots instead of comparing. */
const recording = process.env.UPDATE_WEB_BASELINE === "1";
const TOLERANCE_PX = 12;
/** A loaded CI machine may take seconds to show what a write changed: poll for that long, not vitest's 1 s. */
const POLL = { timeout: 15_000 };

const localDay = (at = new Date()) =>
  `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, "0")}-${String(at.getDate()).padStart(2, "0")}`;

type Box = { x: number; y: number; width: number; height: number };
type Layout = Record<string, Box>;

/** The boxes of the page's landmarks: what a layout regression moves, whatever the pixels inside. */
const layoutOf = async (page: Page, selectors: Record<string, string>): Promise<Layout> => {
  const layout: Layout = {};
  for (const [name, selector] of Object.entries(selectors)) {
    const box = await page.locator(selector).first().boundingBox();
    if (!box) throw new Error(`${selector} is not on the page`);
    layout[name] = { x: Math.round(box.x), y: Math.round(box.y), width: Math.round(box.width), height: Math.round(box.height) };
  }
  return layout;
};

const baseline = (): Record<string, Layout> =>
  existsSync(LAYOUT_BASELINE) ? (JSON.parse(readFileSync(LAYOUT_BASELINE, "utf8")) as Record<string, Layout>) : {};
const recorded: Record<string, Layout> = {};

/** Takes the screenshot and compares the landmarks' boxes with the baseline, each edge within the tolerance. */
const checkLayout = async (page: Page, name: string, selectors: Record<string, string>) => {
  await page.screenshot({ path: recording ? new URL(`web-${name}.png`, SCREENSHOTS).pathname : join(tmpdir(), `fit-web-${name}.png`), fullPage: true });
  const layout = await layoutOf(page, selectors);
  // Whatever the baseline: nothing is wider than the window (no sideways scrolling on a phone).
  expect(await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")).toBe(true);
  if (recording) {
    recorded[name] = layout;
    return layout;
  }
  const expected = baseline()[name];
  if (!expected) throw new Error(`no recorded layout for ${name}: run with UPDATE_WEB_BASELINE=1 and commit test/web-app-layout.json`);
  for (const [element, box] of Object.entries(expected)) {
    const actual = layout[element]!;
    for (const edge of ["x", "y", "width", "height"] as const) {
      expect(Math.abs(actual[edge] - box[edge]), `${name}: ${element}.${edge} is ${actual[edge]}, recorded ${box[edge]}`).toBeLessThanOrEqual(TOLERANCE_PX);
    }
  }
  return layout;
};

const curl = promisify(execFile);

const nav = (page: Page, name: string) => page.getByRole("navigation", { name: "Main" }).getByRole("link", { name, exact: true });

describe("the web app", () => {
  let system: System;
  let context: BrowserContext;
  let page: Page;
  let profile: string;
  // This file has a database of its own, so the README's screenshots can show a plain address.
  const email = "you@example.com";
  const cspViolations: string[] = [];

  beforeAll(async () => {
    ensureWebAppBuilt();
    system = await startSystem({ databaseUrl: inject("databaseUrl"), natsUrl: inject("natsUrl") });
    profile = mkdtempSync(join(tmpdir(), "fit-chromium-"));
    context = await launchChromium(profile);
    page = context.pages()[0] ?? (await context.newPage());
    await page.setViewportSize({ width: 1280, height: 860 });
    page.on("console", (message) => {
      if (/content security policy/i.test(message.text())) cspViolations.push(message.text());
    });
  });

  afterAll(async () => {
    if (recording) writeFileSync(LAYOUT_BASELINE, `${JSON.stringify({ ...baseline(), ...recorded }, null, 2)}\n`);
    await context?.close();
    await system?.stop();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  it("loads less than 150 KB of JavaScript, compressed, on first load", () => {
    const bytes = firstLoadJsGzipBytes();
    expect(bytes).toBeGreaterThan(1000);
    expect(bytes).toBeLessThan(BUDGET_BYTES);
  });

  it("is served at / with the strict policy, hashed assets cached for good and client routes falling back to the app", async () => {
    const index = await fetch(`${system.url}/`);
    expect(index.status).toBe(200);
    expect(index.headers.get("cache-control")).toBe("no-cache");
    expect(index.headers.get("content-security-policy")).toContain("script-src 'self'");
    const html = await index.text();
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    const asset = await fetch(`${system.url}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(asset.headers.get("content-encoding")).toMatch(/^(br|gzip)$/);
    const clientRoute = await fetch(`${system.url}/food?date=2026-11-20`);
    expect(clientRoute.status).toBe(200);
    expect(await clientRoute.text()).toBe(html);
    for (const path of ["/api/nothing-here", "/oauth/nothing-here", "/.well-known/nothing-here", "/favicon.ico"]) {
      expect((await fetch(`${system.url}${path}`)).status, path).toBe(path.startsWith("/api") ? 401 : 404);
    }
    expect((await fetch(`${system.url}/healthz`)).headers.get("content-type")).toContain("application/json");
  });

  it("signs in with the keyboard alone through the printed magic link", async () => {
    await page.goto(system.url);
    await expect.poll(() => page.evaluate("document.activeElement?.id"), POLL).toBe("signin-email");
    const link = await printedLink(email, async () => {
      await page.keyboard.type(email);
      await page.keyboard.press("Enter");
      await page.getByText("A sign-in link is on its way").waitFor();
    });
    await page.goto(link);
    await page.getByRole("heading", { name: "Home" }).waitFor();
    await expect.poll(() => page.getByText("No weigh-ins yet").count(), POLL).toBe(1);
    // Focus is visible: the focused link carries an outline.
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    const outline = await page.evaluate("getComputedStyle(document.activeElement).outlineStyle");
    expect(outline).not.toBe("none");
  });

  it("sets targets, logs weight with its error shown beside the field, and edits the note", async () => {
    await nav(page, "Targets").click();
    await page.getByLabel("Daily energy (kcal)").fill("2200");
    await page.getByLabel("Daily protein (g)").fill("150");
    await page.getByLabel("Goal weight (kg)").fill("75");
    await page.getByRole("button", { name: "Save targets" }).click();
    await page.getByText("Saved.").waitFor();

    await nav(page, "Weight").click();
    await page.getByLabel("Weight (kg)").fill("500");
    await page.getByRole("button", { name: "Log weight" }).click();
    const fieldError = page.locator("#weight-weightKg-error");
    await fieldError.waitFor();
    expect(await fieldError.textContent()).toBe("weightKg must be between 9 and 320 kg");

    await page.getByLabel("Weight (kg)").fill("81.4");
    await page.getByLabel("Body fat (%)").fill("18");
    await page.getByLabel("Note").fill("after run");
    await page.getByRole("button", { name: "Log weight" }).click();
    await page.getByText("Logged.").waitFor();
    expect(await fieldError.count()).toBe(0);
    const list = page.getByRole("list", { name: "Weigh-ins" });
    await list.getByText("after run").waitFor();

    await list.getByRole("button", { name: /^Edit the note of 81.4 kg/ }).click();
    await list.getByLabel("Note").fill("after a long run");
    await list.getByRole("button", { name: "Save" }).click();
    await list.getByText("after a long run").waitFor();
  });

  it("logs food on today's page, edits an item, moves one to another day and undoes a delete", async () => {
    await nav(page, "Food").click();
    const add = async (name: string, kcal: string, protein: string, meal: string) => {
      await page.locator("#food-name").fill(name);
      await page.locator("#food-kcal").fill(kcal);
      await page.locator("#food-proteinG").fill(protein);
      await page.locator("#food-meal").selectOption(meal);
      await page.getByRole("button", { name: "Add", exact: true }).click();
      await page.getByRole("button", { name: `Edit ${name}` }).waitFor();
    };
    await add("oats", "380", "13", "breakfast");
    await add("chicken and rice", "600", "55", "lunch");
    await add("apple", "95", "0.5", "snack");
    const total = page.getByTestId("day-total");
    await expect.poll(() => total.textContent(), POLL).toBe("1075 / 2200 kcal · 69 / 150 g protein");

    await page.getByRole("button", { name: "Edit chicken and rice" }).click();
    const editor = page.getByRole("form", { name: "Edit chicken and rice" });
    await editor.getByLabel("kcal").fill("650");
    await editor.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => total.textContent(), POLL).toBe("1125 / 2200 kcal · 69 / 150 g protein");
    // Only what was changed changes: the item stays in its meal.
    await page.getByRole("region", { name: "lunch" }).getByText("chicken and rice").waitFor();

    const yesterday = localDay(new Date(Date.now() - 86_400_000));
    await page.getByRole("button", { name: "Edit oats" }).click();
    await page.getByRole("form", { name: "Edit oats" }).getByLabel("Day").fill(yesterday);
    await page.getByRole("form", { name: "Edit oats" }).getByRole("button", { name: "Save" }).click();
    await expect.poll(() => total.textContent(), POLL).toBe("745 / 2200 kcal · 56 / 150 g protein");

    await page.getByRole("button", { name: "Delete apple" }).click();
    await expect.poll(() => total.textContent(), POLL).toBe("650 / 2200 kcal · 55 / 150 g protein");
    await page.getByRole("button", { name: "Undo" }).click();
    await expect.poll(() => total.textContent(), POLL).toBe("745 / 2200 kcal · 56 / 150 g protein");

    await page.getByRole("link", { name: "← Previous day" }).click();
    await page.getByRole("button", { name: "Edit oats" }).waitFor();
    await expect.poll(() => total.textContent(), POLL).toBe("380 / 2200 kcal · 13 / 150 g protein");
  });

  it("shows the logged day on the dashboard: weight, intake against targets, measurements and the ratio", async () => {
    await nav(page, "Measurements").click();
    for (const [site, value] of [["waist", "84"], ["shoulders", "120"]] as const) {
      await page.getByLabel("Site").selectOption(site);
      await page.getByLabel("Value (cm)").fill(value);
      await page.getByRole("button", { name: "Add", exact: true }).click();
      await page.getByRole("button", { name: `Delete ${site} ${value} cm` }).waitFor();
    }
    await nav(page, "Home").click();
    await page.getByTestId("latest-weight").waitFor();
    expect(await page.getByTestId("latest-weight").textContent()).toBe("81.4 kg");
    expect(await page.getByTestId("today-energy").textContent()).toBe("745 / 2200 kcal");
    expect(await page.getByTestId("today-protein").textContent()).toBe("56 / 150 g");
    expect(await page.getByTestId("adherence").textContent()).toBe("under target");
    expect(await page.getByTestId("shoulder-to-waist").textContent()).toBe("1.429");
    await page.locator(".chart canvas").first().waitFor();
  });

  it("charts weight and daily intake against the targets on the History page", async () => {
    // Two months of history, written with a key as a scale or a script would.
    const { key } = await system.key(email);
    const post = (path: string, body: unknown) =>
      fetch(`${system.url}${path}`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify(body) });
    const day = 86_400_000;
    for (let daysAgo = 60; daysAgo >= 2; daysAgo -= 3) {
      expect((await post("/api/weight", { weightKg: Math.round((81.5 + daysAgo * 0.05 + (daysAgo % 2) * 0.3) * 10) / 10, ts: Date.now() - daysAgo * day })).status).toBe(200);
    }
    for (let daysAgo = 14; daysAgo >= 2; daysAgo--) {
      const date = localDay(new Date(Date.now() - daysAgo * day));
      expect((await post("/api/nutrition/items", { date, name: "meals", kcal: 1900 + (daysAgo % 4) * 150, proteinG: 120 + (daysAgo % 3) * 20 })).status).toBe(200);
    }
    await nav(page, "History").click();
    await page.getByRole("heading", { name: "Energy per day" }).waitFor();
    // Each chart draws once its own data has come; on a busy machine the heading is there before all three are.
    await page.locator(".chart canvas").nth(2).waitFor();
    expect(await page.locator(".chart canvas").count()).toBe(3);
    await checkLayout(page, "history-desktop", { nav: ".top nav", weight: "section[aria-labelledby=history-weight]" });
    await nav(page, "Home").click();
  });

  it("keeps its layout at desktop and phone width", async () => {
    const home = { nav: ".top nav", weight: "section[aria-labelledby=tile-weight]", today: "section[aria-labelledby=tile-today]",
      body: "section[aria-labelledby=tile-body]", workouts: "section[aria-labelledby=tile-workouts]", trend: ".chart" };
    const desktop = await checkLayout(page, "home-desktop", home);
    // Four tiles side by side on a desktop...
    expect(new Set([desktop.weight!.y, desktop.today!.y, desktop.body!.y, desktop.workouts!.y]).size).toBe(1);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator(".chart canvas").first().waitFor();
    const phone = await checkLayout(page, "home-phone", home);
    // ...stacked in one column on a phone, each the full width.
    expect(new Set([phone.weight!.x, phone.today!.x, phone.body!.x, phone.workouts!.x]).size).toBe(1);
    expect(phone.today!.y).toBeGreaterThan(phone.weight!.y);
    await nav(page, "Food").click();
    await page.getByRole("button", { name: "Edit chicken and rice" }).waitFor();
    await checkLayout(page, "food-phone", { nav: ".top nav", form: "form.card", total: "[data-testid=day-total]" });
    await page.setViewportSize({ width: 1280, height: 860 });
    await nav(page, "Food").click();
    await checkLayout(page, "food-desktop", { nav: ".top nav", form: "form.card", total: "[data-testid=day-total]" });
  });

  it("creates an API key in Settings that works from outside the browser, with its scopes, until revoked", async () => {
    await nav(page, "Settings").click();
    await page.getByLabel("Name").fill("script");
    await page.getByLabel("weight:read").check();
    await page.getByLabel("Expires in (days)").fill("30");
    await page.getByRole("button", { name: "Create key" }).click();
    const key = await page.getByTestId("new-key").inputValue();
    expect(key).toMatch(/^fit_/);
    await page.getByRole("list", { name: "API keys" }).getByText("weight:read").waitFor();
    await checkLayout(page, "settings-desktop", { nav: ".top nav", keys: "section[aria-labelledby=settings-keys]" });

    const { stdout } = await curl("curl", ["-sS", "-H", `Authorization: Bearer ${key}`, `${system.url}/api/weight`]);
    const listed = JSON.parse(stdout) as { items: { weightKg: number; note: string }[] };
    expect([listed.items[0]?.weightKg, listed.items[0]?.note]).toEqual([81.4, "after a long run"]);
    const write = await fetch(`${system.url}/api/weight`, {
      method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify({ weightKg: 80 }),
    });
    expect(write.status).toBe(403);

    await page.getByRole("button", { name: "Revoke script" }).click();
    await expect.poll(() => page.getByRole("button", { name: "Revoke script" }).count(), POLL).toBe(0);
    expect((await fetch(`${system.url}/api/weight`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(401);
  });

  it("sends a weigh-in whose answer was lost again under the same Idempotency-Key, and it is stored once", async () => {
    // The first POST reaches the server and is stored; the browser is told 503, as when a service dies just after
    // its commit (docs/decisions/0062-idempotency-keys.md). Later ones pass untouched.
    const keys: (string | undefined)[] = [];
    await page.route(`${system.url}/api/weight`, async (route) => {
      if (route.request().method() !== "POST") return route.continue();
      keys.push(route.request().headers()["idempotency-key"]);
      if (keys.length > 1) return route.continue();
      await route.fetch();
      return route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify({ error: "the service is unavailable" }) });
    });
    try {
      await nav(page, "Weight").click();
      await page.getByLabel("Weight (kg)").fill("80.6");
      await page.getByLabel("Note", { exact: true }).fill("answer lost once");
      await page.getByRole("button", { name: "Log weight" }).click();
      await page.getByText("Logged.").waitFor();
    } finally {
      await page.unroute(`${system.url}/api/weight`);
    }
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^"[0-9a-f]{32}"$/);
    expect(keys[1]).toBe(keys[0]);
    const listed = (await (await page.request.get(`${system.url}/api/weight`)).json()) as { items: { note: string | null }[] };
    const notes = listed.items.filter((item) => item.note === "answer lost once");
    expect(notes).toHaveLength(1);
  });

  it("signs out, and ran without a Content-Security-Policy violation", async () => {
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    await page.reload();
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    expect(cspViolations).toEqual([]);
  });
});
