// The web app's product screens in a real browser (Debian's Chromium driven by Playwright) against the whole
// platform, its coach on a local stand-in of an OpenAI-compatible model: workouts imported from two files and
// opened on their route, described, edited and deleted; a chat with the coach that survives a reload and says
// plainly when the model fails; a meal described, corrected in its preview and logged.
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenAi, type ChatRequest, type FakeBehaviour, type FakeOpenAi } from "@fit/testing";
import { makeGpx, makeTcx, type TrackPoint } from "../packages/activity-files/test/support/activity-files.ts";
import { expectNoSeriousViolations } from "./support/axe.ts";
import { requestKind } from "./support/coach-model-requests.ts";
import { firstLoadJsGzipBytes, signedInWebApp } from "./support/web-app.ts";

/** A loaded CI machine may take seconds to show what a write changed: poll for that long, not vitest's 1 s. */
const POLL = { timeout: 15_000 };
const REPLY = "Keep the pizza to two slices and add a salad.";
const DAY_MS = 86_400_000;

/** A loop of about 3.1 km around a park, a point every 5 s at 3.6 m/s: a route with width and height. */
const loop = (start: Date): TrackPoint[] =>
  Array.from({ length: 175 }, (_, i) => {
    const angle = (2 * Math.PI * i) / 174;
    return {
      lat: 52.52 + 0.0045 * Math.sin(angle),
      lon: 13.405 + 0.0074 * Math.cos(angle),
      ele: 40 + 5 * Math.sin(angle),
      time: new Date(start.getTime() + i * 5000),
    };
  });

/** The coach's three kinds of call, each answered in its format; chat as the queue or REPLY says. */
const model = (request: ChatRequest): FakeBehaviour => {
  const kind = requestKind(request);
  if (kind === "foods") {
    const pizza = { name: "pizza", quantity: 2, unit: "slice", grams: 220, kcal: 570, kcalLow: 480, kcalHigh: 690, proteinG: 24, proteinLow: 20, proteinHigh: 29 };
    return { reply: JSON.stringify({ items: [pizza], unrecognized: [] }) };
  }
  if (kind === "workout") {
    return {
      reply: JSON.stringify({
        activityType: "run", summary: "5 km run", durationS: 1800, distanceM: 5000, elevationGainM: null, energyKcal: null, avgHr: null,
        maxHr: null, avgPowerW: null, avgCadence: null, exercises: [], when: { dayOffset: -1, minuteOfDay: 420 },
      }),
    };
  }
  return { reply: REPLY };
};

const nav = (page: Page, name: string) => page.getByRole("navigation", { name: "Main" }).getByRole("link", { name, exact: true });

describe("the web app's workouts, coach and meal screens", () => {
  let fake: FakeOpenAi;
  beforeAll(async () => {
    fake = await startFakeOpenAi();
    fake.setFallback(model);
  });
  afterAll(async () => {
    await fake?.close();
  });
  const web = signedInWebApp("athlete@example.com", () => ({
    COACH_MODEL_URL: fake.url, COACH_MODEL: "fake-coach-model", COACH_MODEL_RETRIES: "0", COACH_MODEL_TIMEOUT_MS: "5000",
  }));


  it("keeps the new screens out of the first load", () => {
    const html = readFileSync(new URL("../apps/web/dist/index.html", import.meta.url), "utf8");
    expect(html).not.toMatch(/workouts-|coach-|meal-/);
    expect(firstLoadJsGzipBytes()).toBeLessThan(150 * 1024);
  });

  it("imports two files with a line each (and says why a dropped one was refused), and opens one on its route and splits", async () => {
    await nav(web.page, "Workouts").click();
    await web.page.getByRole("heading", { name: "Workouts", level: 1 }).waitFor();
    await web.page.getByText("No workouts yet").waitFor();
    const twoDaysAgo = new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS - 2 * DAY_MS + 7 * 3_600_000);
    const threeDaysAgo = new Date(twoDaysAgo.getTime() - DAY_MS);
    await web.page.getByLabel("Choose files").setInputFiles([
      { name: "park-loop.gpx", mimeType: "application/gpx+xml", buffer: Buffer.from(makeGpx(loop(twoDaysAgo), { name: "Park loop", type: "running" })) },
      { name: "tempo.tcx", mimeType: "application/xml", buffer: Buffer.from(makeTcx(loop(threeDaysAgo), { sport: "Running" })) },
    ]);
    const imports = web.page.getByRole("list", { name: "Imports" });
    await expect.poll(() => imports.getByText(/^imported: /).count(), POLL).toBe(2);
    expect(await imports.getByText("park-loop.gpx").count()).toBe(1);
    expect(await imports.getByText("tempo.tcx").count()).toBe(1);
    // A file dropped on the import area is sent the same way; one the service cannot read says why on its line.
    const dropped = await web.page.evaluateHandle(`(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(["<gpx><trk><trkseg></trkseg></trk></gpx>"], "empty.gpx", { type: "application/gpx+xml" }));
      return transfer;
    })()`);
    await web.page.locator(".dropzone").filter({ hasText: "Drop GPX, TCX or FIT files here" }).dispatchEvent("drop", { dataTransfer: dropped });
    await imports.getByRole("listitem").filter({ hasText: "empty.gpx" }).getByText("not imported: the file has no track points").waitFor();
    // Both are listed, under their week with its totals.
    await web.page.getByRole("link", { name: "Park loop" }).waitFor();
    await expect.poll(() => web.page.locator(".week-totals").allTextContents(), POLL).toEqual(
      expect.arrayContaining([expect.stringMatching(/workouts? · .* · \d+\.\d\d km/)]),
    );
    await expectNoSeriousViolations(web.page, "workouts");

    await web.page.getByRole("link", { name: "Park loop" }).click();
    await web.page.getByRole("heading", { name: "Park loop", level: 1 }).waitFor();
    const map = web.page.getByRole("img", { name: /^Route of Park loop/ });
    await map.waitFor();
    await expectNoSeriousViolations(web.page, "workout");
    const points = (await map.locator("polyline").getAttribute("points"))!.split(" ").map((pair) => pair.split(",").map(Number) as [number, number]);
    expect(points.length).toBeGreaterThan(100);
    const xs = points.map(([x]) => x);
    const ys = points.map(([, y]) => y);
    // A loop, fitted to the box: wide and tall, not a line or a dot.
    expect(Math.max(...xs) - Math.min(...xs)).toBeGreaterThan(200);
    expect(Math.max(...ys) - Math.min(...ys)).toBeGreaterThan(200);
    const splits = web.page.getByRole("table").filter({ has: web.page.getByRole("columnheader", { name: "Pace" }) });
    await expect.poll(() => splits.getByRole("row").count(), POLL).toBe(5);
    expect(await splits.getByRole("row").nth(1).textContent()).toMatch(/^11\.00 km4:3\d4:3\d \/km$/);
    expect(await web.page.getByRole("definition").allTextContents()).toEqual(expect.arrayContaining(["Run", expect.stringMatching(/^3\.1\d km$/)]));
  });

  it("logs a described workout, corrects it and deletes it after confirming", async () => {
    await web.page.getByRole("link", { name: "← All workouts" }).click();
    await web.page.getByLabel("What did you do?").fill("ran 5 km in 30 minutes yesterday morning");
    await web.page.getByRole("button", { name: "Log workout" }).click();
    await web.page.getByRole("status").getByRole("link", { name: "5 km run" }).click();
    await web.page.getByRole("heading", { name: "5 km run", level: 1 }).waitFor();
    expect(await web.page.getByRole("img", { name: /^Route of/ }).count()).toBe(0);

    await web.page.getByRole("button", { name: "Edit workout" }).click();
    await expectNoSeriousViolations(web.page, "workout editor");
    await web.page.getByLabel("Title").fill("Easy 5 km run");
    await web.page.getByLabel("Duration (min)").fill("32");
    await web.page.getByRole("button", { name: "Save" }).click();
    await web.page.getByRole("heading", { name: "Easy 5 km run", level: 1 }).waitFor();
    await expect.poll(() => web.page.getByRole("definition").allTextContents(), POLL).toEqual(expect.arrayContaining(["32:00", "6:24 /km"]));

    await web.page.getByRole("button", { name: "Delete workout" }).click();
    await web.page.getByRole("button", { name: "Keep it" }).click();
    await web.page.getByRole("button", { name: "Delete workout" }).click();
    await web.page.getByRole("button", { name: "Yes, delete it" }).click();
    await web.page.getByRole("heading", { name: "Workouts", level: 1 }).waitFor();
    await web.page.getByRole("link", { name: "Park loop" }).waitFor();
    expect(await web.page.getByRole("link", { name: "Easy 5 km run" }).count()).toBe(0);
    const listed = (await (await web.page.request.get(`${web.system.url}/api/workouts`)).json()) as { items: { summary: string }[] };
    expect(listed.items.map((w) => w.summary).sort()).toEqual(["Park loop", expect.stringMatching(/^Run 3\.1\d km$/)]);
  });

  it("chats with the coach, keeps the conversation through a reload, says when the model fails, and clears", async () => {
    await nav(web.page, "Coach").click();
    await web.page.getByRole("heading", { name: "Coach", level: 1 }).waitFor();
    await web.page.getByLabel("Your message").fill("Can I have pizza tonight?");
    await web.page.getByRole("button", { name: "Send" }).click();
    const conversation = web.page.getByRole("list", { name: "Conversation" });
    await conversation.getByText(REPLY).waitFor();
    await expectNoSeriousViolations(web.page, "coach");
    const chat = fake.received.filter((request) => requestKind(request.body) === "chat").at(-1)!.body;
    expect(chat.messages.filter((m) => m.role === "user").at(-1)!.content).toBe("Can I have pizza tonight?");

    await web.page.reload();
    await conversation.getByText(REPLY).waitFor();
    expect(await conversation.getByRole("listitem").count()).toBe(2);

    // The chat call fails (the coach's food estimate of the message, made first, still answers).
    const overloaded: FakeBehaviour = { status: 500, body: { error: { message: "overloaded", type: "server_error", param: null, code: null } } };
    fake.setFallback((request) => (requestKind(request) === "chat" ? overloaded : model(request)));
    await web.page.getByLabel("Your message").fill("And a beer?");
    await web.page.keyboard.press("Enter");
    const alert = web.page.getByRole("alert");
    await alert.getByText(/language model is unavailable: the language model failed/).waitFor();
    expect(await conversation.getByText("And a beer?").count()).toBe(1);
    fake.setFallback(model);
    await alert.getByRole("button", { name: "Try again" }).click();
    await expect.poll(() => conversation.getByText(REPLY).count(), POLL).toBe(2);
    expect(await web.page.getByRole("alert").count()).toBe(0);

    await web.page.getByRole("button", { name: "Clear conversation" }).click();
    expect(await conversation.count()).toBe(0);
    await web.page.reload();
    await web.page.getByText("Ask about today's food").waitFor();
    expect(await conversation.count()).toBe(0);
  });

  it("describes a meal, corrects an item's kcal in the preview, and logs it as corrected", async () => {
    await web.page.getByRole("link", { name: "Describe a meal" }).click();
    await web.page.getByRole("heading", { name: "Describe a meal", level: 1 }).waitFor();
    await web.page.getByLabel("In your own words").fill("two slices of pizza");
    await web.page.getByRole("button", { name: "Estimate" }).click();
    const item = web.page.getByRole("group", { name: "Item 1: pizza" });
    await item.waitFor();
    await expectNoSeriousViolations(web.page, "describe a meal");
    expect(await item.getByLabel("kcal").inputValue()).toBe("570");
    // Nothing is logged until the preview is confirmed.
    const today = await web.page.evaluate<string>("new Date().toLocaleDateString('sv')");
    const items = async () => (await (await web.page.request.get(`${web.system.url}/api/nutrition/items?date=${today}`)).json()) as { name: string; kcal: number }[];
    expect(await items()).toEqual([]);

    await item.getByLabel("kcal").fill("520");
    await web.page.getByLabel("Meal", { exact: true }).selectOption("dinner");
    await web.page.getByRole("button", { name: "Log this item" }).click();
    await web.page.getByRole("status").getByText("Logged 1 item on today.").waitFor();
    expect((await items()).map(({ name, kcal }) => ({ name, kcal }))).toEqual([{ name: "pizza", kcal: 520 }]);

    await web.page.getByRole("link", { name: "See the day’s food" }).click();
    await web.page.getByRole("heading", { name: "Food", level: 1 }).waitFor();
    await expect.poll(() => web.page.getByRole("listitem").filter({ hasText: "pizza" }).textContent(), POLL).toContain("520 kcal");
  });

  it("ran without a Content-Security-Policy violation", () => {
    expect(web.cspViolations).toEqual([]);
  });
});
