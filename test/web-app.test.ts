// The web app in a real browser (Debian's Chromium driven by Playwright) against the whole platform: sign-in
// through the printed magic link, logging and editing, the dashboard following, an API key created in Settings
// and used from outside, and the layout at desktop and phone width compared with a recorded baseline.
import { execFile } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { scopes } from "@fit/contracts";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { expectNoSeriousViolations } from "./support/axe.ts";
import { printedLink } from "./support/sign-in.ts";
import { startSystem, type System } from "./support/system.ts";
import { ensureWebAppBuilt, firstLoadJsGzipBytes, openBrowserWindow, type BrowserWindow } from "./support/web-app.ts";

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

const DESKTOP = { width: 1280, height: 860 };
const PHONE = { width: 390, height: 844 };

/** axe-core's check of the screen as it stands, at desktop and then phone width (the window is left at desktop). */
const checkAccessibility = async (page: Page, screen: string) => {
  await page.setViewportSize(DESKTOP);
  await expectNoSeriousViolations(page, `${screen} (desktop)`);
  await page.setViewportSize(PHONE);
  await expectNoSeriousViolations(page, `${screen} (phone)`);
  await page.setViewportSize(DESKTOP);
};

const nav = (page: Page, name: string) => page.getByRole("navigation", { name: "Main" }).getByRole("link", { name, exact: true });

describe("the web app", () => {
  let system: System;
  let browser: BrowserWindow | undefined;
  let page: Page;
  // This file has a database of its own, so the README's screenshots can show a plain address.
  const email = "you@example.com";

  beforeAll(async () => {
    ensureWebAppBuilt();
    system = await startSystem({ databaseUrl: inject("databaseUrl"), natsUrl: inject("natsUrl") });
    browser = await openBrowserWindow();
    page = browser.page;
  });

  afterAll(async () => {
    if (recording) writeFileSync(LAYOUT_BASELINE, `${JSON.stringify({ ...baseline(), ...recorded }, null, 2)}\n`);
    await browser?.close();
    await system?.stop();
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
    const favicon = /<link rel="icon" type="image\/svg\+xml" href="(\/assets\/[^"]+\.svg)">/.exec(html)?.[1];
    const icon = await fetch(`${system.url}${favicon}`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get("content-type")).toBe("image/svg+xml");
    expect(icon.headers.get("content-security-policy")).toBe("default-src 'none'; style-src 'unsafe-inline'");
    expect(await icon.text()).toContain("<svg");
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
    await checkAccessibility(page, "sign-in");
    await expect.poll(() => page.evaluate("document.activeElement?.id"), POLL).toBe("signin-email");
    const link = await printedLink(email, async () => {
      await page.keyboard.type(email);
      await page.keyboard.press("Enter");
      // This system has no mail transport: the page says where the link really went.
      await page.getByText("the sign-in link for you@example.com was printed on the server's console").waitFor();
      expect(await page.getByText("on its way").count()).toBe(0);
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

  it("skips to the content from the keyboard: the first Tab reaches the skip link, Enter moves focus to main", async () => {
    await page.reload();
    await page.getByRole("heading", { name: "Home" }).waitFor();
    await page.keyboard.press("Tab");
    expect(await page.evaluate("document.activeElement?.textContent")).toBe("Skip to content");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.evaluate("document.activeElement?.id"), POLL).toBe("main");
    expect(new URL(page.url()).pathname).toBe("/");
    // The next Tab goes on from the content, not back to the navigation.
    await page.keyboard.press("Tab");
    expect(await page.evaluate("document.activeElement?.closest('main') !== null")).toBe(true);
  });

  it("sets targets, logs weight with its error shown beside the field, and edits the note", async () => {
    await nav(page, "Targets").click();
    await page.getByLabel("Daily energy (kcal)").fill("2200");
    await page.getByLabel("Daily protein (g)").fill("150");
    await page.getByLabel("Goal weight (kg)").fill("75");
    await page.getByRole("button", { name: "Save targets" }).click();
    await page.getByText("Saved.").waitFor();

    // Text in a number field is refused beside it, in the field's own words, and nothing is sent or cleared.
    await page.getByLabel("Daily energy (kcal)").fill("lots");
    await page.getByRole("button", { name: "Save targets" }).click();
    const kcalError = page.locator("#targets-dailyKcalTarget-error");
    await kcalError.waitFor();
    expect(await kcalError.textContent()).toBe("Daily energy (kcal) must be a number");
    expect(await page.getByLabel("Daily energy (kcal)").inputValue()).toBe("lots");
    expect(await page.getByLabel("Daily protein (g)").inputValue()).toBe("150");
    const stored = (await (await page.request.get(`${system.url}/api/targets`)).json()) as { dailyKcalTarget: number; proteinTargetG: number };
    expect([stored.dailyKcalTarget, stored.proteinTargetG]).toEqual([2200, 150]);
    await page.reload();
    await page.getByLabel("Daily energy (kcal)").waitFor();
    expect(await page.getByLabel("Daily energy (kcal)").inputValue()).toBe("2200");

    await nav(page, "Weight").click();
    await page.getByLabel("Weight (kg)").fill("500");
    await page.getByRole("button", { name: "Log weight" }).click();
    const fieldError = page.locator("#weight-weightKg-error");
    await fieldError.waitFor();
    // The API's message names `weightKg`; the person reads the label.
    expect(await fieldError.textContent()).toBe("Weight (kg) must be between 9 and 320 kg");

    await page.getByLabel("Weight (kg)").fill("81.4");
    await page.getByLabel("Body fat (%)").fill("18");
    await page.getByLabel("Note").fill("after run");
    await page.getByRole("button", { name: "Log weight" }).click();
    await page.getByText("Logged.").waitFor();
    expect(await fieldError.count()).toBe(0);
    const list = page.getByRole("list", { name: "Weigh-ins" });
    await list.getByText("after run").waitFor();

    await list.getByRole("button", { name: /^Edit note of 81.4 kg/ }).click();
    await list.getByLabel("Note").fill("after a long run");
    await list.getByRole("button", { name: "Save" }).click();
    await list.getByText("after a long run").waitFor();

    // A weigh-in from three days ago, back-filled: it sorts under today's, at its own time.
    const threeDaysAgo = new Date(Date.now() - 3 * 86_400_000);
    await page.getByLabel("Weight (kg)").fill("81,9");
    await page.getByLabel("When").fill(`${localDay(threeDaysAgo)}T07:30`);
    await page.getByLabel("Note", { exact: true }).fill("back-dated");
    await page.getByRole("button", { name: "Log weight" }).click();
    await list.getByText("back-dated").waitFor();
    const rows = await list.locator("li").allTextContents();
    expect(rows.findIndex((row) => row.includes("back-dated"))).toBe(1);
    const listed = (await (await page.request.get(`${system.url}/api/weight`)).json()) as { items: { note: string | null; ts: number }[] };
    const backDated = new Date(listed.items.find((item) => item.note === "back-dated")!.ts);
    expect([localDay(backDated), backDated.getHours(), backDated.getMinutes()]).toEqual([localDay(threeDaysAgo), 7, 30]);
    // The field reads now again for the next one.
    expect(await page.getByLabel("When").inputValue()).toMatch(new RegExp(`^${localDay()}T`));
  });

  it("logs food on today's page, edits an item, moves one to another day and undoes a delete", async () => {
    await nav(page, "Food").click();
    const add = async (name: string, kcal: string, protein: string, meal: string, macros: { fat?: string; carbs?: string } = {}) => {
      await page.locator("#food-name").fill(name);
      await page.locator("#food-kcal").fill(kcal);
      await page.locator("#food-proteinG").fill(protein);
      if (macros.fat) await page.locator("#food-fatG").fill(macros.fat);
      if (macros.carbs) await page.locator("#food-carbsG").fill(macros.carbs);
      await page.locator("#food-meal").selectOption(meal);
      await page.getByRole("button", { name: "Add", exact: true }).click();
      await page.getByRole("button", { name: `Edit ${name}` }).waitFor();
    };
    await add("oats", "380", "13", "breakfast", { fat: "7", carbs: "66" });
    await page.getByText("380 kcal · 13 g protein · 7 g fat · 66 g carbs").waitFor();
    // The meal stays chosen for the next item.
    expect(await page.locator("#food-meal").inputValue()).toBe("breakfast");
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
    // The item left this day: the page says where it went and links there.
    const moved = page.getByRole("status").filter({ hasText: "Moved oats to" });
    await moved.waitFor();
    expect(await moved.getByRole("link").getAttribute("href")).toBe(`/food?date=${yesterday}`);

    await page.getByRole("button", { name: "Delete apple" }).click();
    await expect.poll(() => total.textContent(), POLL).toBe("650 / 2200 kcal · 55 / 150 g protein");
    await page.getByRole("button", { name: "Undo", exact: true }).click();
    await expect.poll(() => total.textContent(), POLL).toBe("745 / 2200 kcal · 56 / 150 g protein");

    await page.getByRole("link", { name: "← Previous day" }).click();
    await page.getByRole("button", { name: "Edit oats" }).waitFor();
    await expect.poll(() => total.textContent(), POLL).toBe("380 / 2200 kcal · 13 / 150 g protein");
  });

  it("says where a moved item went, and moves it back on Undo", async () => {
    await nav(page, "Food").click();
    const total = page.getByTestId("day-total");
    await expect.poll(() => total.textContent(), POLL).toBe("745 / 2200 kcal · 56 / 150 g protein");
    // To the day before (a day ahead may be refused as a future date).
    const yesterday = localDay(new Date(Date.now() - 86_400_000));
    await page.getByRole("button", { name: "Edit apple" }).click();
    await page.getByRole("form", { name: "Edit apple" }).getByLabel("Day").fill(yesterday);
    await page.getByRole("form", { name: "Edit apple" }).getByRole("button", { name: "Save" }).click();
    const moved = page.getByRole("status").filter({ hasText: "Moved apple to" });
    await moved.waitFor();
    expect(await moved.getByRole("link").getAttribute("href")).toBe(`/food?date=${yesterday}`);
    await expect.poll(() => total.textContent(), POLL).toBe("650 / 2200 kcal · 55 / 150 g protein");
    await moved.getByRole("button", { name: "Undo move" }).click();
    await page.getByRole("button", { name: "Edit apple" }).waitFor();
    await expect.poll(() => total.textContent(), POLL).toBe("745 / 2200 kcal · 56 / 150 g protein");
    expect(await moved.count()).toBe(0);
  });

  it("shows today, and says why, for a ?date= that is not a day", async () => {
    await page.goto(`${system.url}/food?date=2026-13-45`);
    await page.getByRole("alert").filter({ hasText: "“2026-13-45” is not a date" }).waitFor();
    expect(await page.getByRole("navigation", { name: "Day" }).locator("strong").textContent()).toBe("Today");
    await page.getByRole("button", { name: "Edit chicken and rice" }).waitFor();
    expect(await page.getByText("Invalid Date").count()).toBe(0);
  });

  it("shows the logged day on the dashboard: weight, intake against targets, measurements and the ratio", async () => {
    await nav(page, "Measurements").click();
    for (const [site, value] of [["waist", "84"], ["shoulders", "120"]] as const) {
      await page.getByLabel("Site").selectOption(site);
      await page.getByLabel("Value (cm)").fill(value);
      await page.getByRole("button", { name: "Add", exact: true }).click();
      await page.getByRole("button", { name: `Delete ${site} ${value} cm` }).waitFor();
    }
    // A waist measured five days ago, back-filled: listed last, and not the latest waist on the dashboard.
    await page.getByLabel("Site").selectOption("waist");
    await page.getByLabel("Value (cm)").fill("86");
    await page.getByLabel("When").fill(`${localDay(new Date(Date.now() - 5 * 86_400_000))}T20:15`);
    await page.getByRole("button", { name: "Add", exact: true }).click();
    await page.getByRole("button", { name: "Delete waist 86 cm" }).waitFor();
    expect((await page.getByRole("list", { name: "Measurements" }).locator("li").allTextContents()).at(-1)).toContain("86 cm");
    await nav(page, "Home").click();
    await page.getByTestId("latest-weight").waitFor();
    expect(await page.getByTestId("latest-weight").textContent()).toBe("81.4 kg");
    expect(await page.getByTestId("today-energy").textContent()).toBe("745 / 2200 kcal");
    expect(await page.getByTestId("today-protein").textContent()).toBe("56 / 150 g");
    expect(await page.getByTestId("adherence").textContent()).toBe("under target");
    // The bar runs towards a mark at the target: 745 of 2200 kcal fills a third of the way to it.
    const energy = page.getByTestId("bar-energy");
    expect(await energy.getAttribute("aria-valuetext")).toBe("745 of 2200 kcal (34 % of the target)");
    const [bar, fill, mark] = await Promise.all([energy, energy.locator(".bar-fill"), energy.locator(".bar-target")].map((l) => l.boundingBox()));
    expect(Math.round((fill!.width / (mark!.x + mark!.width / 2 - bar!.x)) * 100)).toBeGreaterThanOrEqual(32);
    expect(Math.round((fill!.width / (mark!.x + mark!.width / 2 - bar!.x)) * 100)).toBeLessThanOrEqual(36);
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
    // Each chart draws once its own data has come; on a busy machine the heading is there before all are: weight,
    // body fat, each measured site (waist, shoulders), the trend, expenditure, energy and protein.
    await page.locator(".chart canvas").nth(7).waitFor();
    expect(await page.locator(".chart canvas").count()).toBe(8);
    for (const heading of ["Body fat", "waist", "shoulders"]) await page.getByRole("heading", { name: heading, exact: true }).waitFor();
    // The time axis is labelled in days, never hours, even over two days (where uPlot would tick every few hours).
    // The labels are drawn on the canvas: the page's fillText calls are recorded to read them.
    await page.evaluate(`window.chartTexts = [];
      const fillText = CanvasRenderingContext2D.prototype.fillText;
      CanvasRenderingContext2D.prototype.fillText = function (text, ...rest) { window.chartTexts.push(String(text)); return fillText.call(this, text, ...rest); };`);
    await page.locator("#history-from").fill(localDay(new Date(Date.now() - 2 * 86_400_000)));
    await page.locator("#history-from").dispatchEvent("change");
    await expect.poll(() => page.evaluate("window.chartTexts.length"), POLL).toBeGreaterThan(0);
    const labels = await page.evaluate<string[]>("window.chartTexts");
    expect(labels.filter((label) => /\d:\d\d|\d\s?[ap]m\b/i.test(label))).toEqual([]);
    expect(labels.some((label) => /^[A-Z][a-z]{2} \d{1,2}$|^\d{1,2} [A-Z][a-z]{2}$/.test(label))).toBe(true);
    await page.reload();
    await page.getByRole("heading", { name: "Energy per day" }).waitFor();
    await checkLayout(page, "history-desktop", { nav: ".top nav", weight: "section[aria-labelledby=history-weight]" });
    await nav(page, "Home").click();
  });

  it("pages back through every weigh-in to the oldest", async () => {
    const { key } = await system.key(email);
    const day = 86_400_000;
    // 62 more, the oldest 200 days ago: with what is there, well over one page of 50.
    for (let n = 0; n < 62; n++) {
      const daysAgo = 139 + n;
      const answer = await fetch(`${system.url}/api/weight`, {
        method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ weightKg: 85, ts: Date.now() - daysAgo * day, ...(daysAgo === 200 ? { note: "the very first" } : {}) }),
      });
      expect(answer.status).toBe(200);
    }
    await nav(page, "Weight").click();
    const list = page.getByRole("list", { name: "Weigh-ins" });
    await list.locator("li").nth(49).waitFor();
    expect(await list.locator("li").count()).toBe(50);
    const older = page.getByRole("button", { name: "Older weigh-ins" });
    for (let pages = 1; await older.count(); pages++) {
      expect(pages).toBeLessThan(5);
      const shown = await list.locator("li").count();
      await older.click();
      await expect.poll(() => list.locator("li").count(), POLL).toBeGreaterThan(shown);
    }
    await list.getByText("the very first").waitFor();
    const rows = await list.locator("li").allTextContents();
    expect(rows.at(-1)).toContain("the very first");
    expect(rows.length).toBeGreaterThan(80);
    await nav(page, "Home").click();
    await page.getByTestId("latest-weight").waitFor();
  });

  it("keeps its layout at desktop and phone width", async () => {
    const home = { nav: ".top nav", weight: "section[aria-labelledby=tile-weight]", today: "section[aria-labelledby=tile-today]",
      body: "section[aria-labelledby=tile-body]", workouts: "section[aria-labelledby=tile-workouts]", trend: ".chart" };
    const desktop = await checkLayout(page, "home-desktop", home);
    // Four tiles side by side on a desktop...
    expect(new Set([desktop.weight!.y, desktop.today!.y, desktop.body!.y, desktop.workouts!.y]).size).toBe(1);
    await page.setViewportSize(PHONE);
    await page.locator(".chart canvas").first().waitFor();
    const phone = await checkLayout(page, "home-phone", home);
    // ...stacked in one column on a phone, each the full width.
    expect(new Set([phone.weight!.x, phone.today!.x, phone.body!.x, phone.workouts!.x]).size).toBe(1);
    expect(phone.today!.y).toBeGreaterThan(phone.weight!.y);
    await nav(page, "Food").click();
    await page.getByRole("button", { name: "Edit chicken and rice" }).waitFor();
    await checkLayout(page, "food-phone", { nav: ".top nav", form: "form.card", total: "[data-testid=day-total]" });
    await page.setViewportSize(DESKTOP);
    await nav(page, "Food").click();
    await checkLayout(page, "food-desktop", { nav: ".top nav", form: "form.card", total: "[data-testid=day-total]" });
  });

  it("creates an API key in Settings that works from outside the browser, with its scopes, until revoked", async () => {
    await nav(page, "Settings").click();
    await page.getByLabel("Name").fill("script");
    await page.getByLabel("Custom").check();
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

    // Revoking asks first; "Keep it" keeps it.
    await page.getByRole("button", { name: "Revoke script" }).click();
    const confirm = page.getByRole("group", { name: "Confirm revoking script" });
    await confirm.getByRole("button", { name: "Keep it" }).click();
    expect((await fetch(`${system.url}/api/weight`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    await page.getByRole("button", { name: "Revoke script" }).click();
    await confirm.getByRole("button", { name: "Yes, revoke" }).click();
    await expect.poll(() => page.getByRole("button", { name: "Revoke script" }).count(), POLL).toBe(0);
    expect((await fetch(`${system.url}/api/weight`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(401);
  });

  it("makes an \"everything + export\" key with one choice instead of a tick per scope", async () => {
    await page.getByLabel("Name").fill("backup");
    await page.getByLabel("Everything + export").check();
    await page.getByText("also deleting the account").waitFor();
    await page.getByRole("button", { name: "Create key" }).click();
    await page.getByRole("status").filter({ hasText: "Your new key backup" }).waitFor();
    const key = await page.getByTestId("new-key").inputValue();
    const keys = (await (await page.request.get(`${system.url}/api/keys`)).json()) as { name: string; scopes: string[] | null }[];
    expect(keys.find((listed) => listed.name === "backup")?.scopes?.toSorted()).toEqual(scopes.filter((scope) => scope !== "keys").toSorted());
    const exported = await fetch(`${system.url}/api/account/export`, { headers: { authorization: `Bearer ${key}` } });
    expect(exported.status).toBe(200);
    expect(((await exported.json()) as { weighIns: unknown[] }).weighIns.length).toBeGreaterThan(80);
    const write = await fetch(`${system.url}/api/weight`, {
      method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify({ weightKg: 80 }),
    });
    expect(write.status).toBe(200);
    expect((await fetch(`${system.url}/api/keys`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(403);
  });

  it("has no serious or critical accessibility violation on any screen, at desktop and phone width", async () => {
    for (const [link, heading] of [["Home", "Home"], ["Weight", "Weight"], ["Food", "Food"], ["Measurements", "Measurements"],
      ["Targets", "Targets"], ["History", "History"], ["Settings", "Settings"]] as const) {
      await nav(page, link).click();
      await page.getByRole("heading", { name: heading, exact: true, level: 1 }).waitFor();
      await page.waitForLoadState("networkidle");
      await checkAccessibility(page, link);
    }
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
    expect(browser?.cspViolations).toEqual([]);
  });
});
