// "Log from photo" in a real browser (Debian's Chromium driven by Playwright) against the whole platform: a console
// photo and a label picked, what was read shown to correct (low-confidence fields marked), Save logging the
// corrected fields through the create routes, Cancel logging nothing, and a refusal shown with what was read
// (docs/decisions/0085-photo-previews-saved-through-create-routes.md).
import { describe, expect, it } from "vitest";
import { expectNoSeriousViolations } from "./support/axe.ts";
import { CLEAN, consolePhoto, labelPhoto } from "./support/photo-corpus.ts";
import { firstLoadJsGzipBytes, signedInWebApp } from "./support/web-app.ts";

const POLL = { timeout: 30_000 };

describe("Log from photo", () => {
  const web = signedInWebApp("photographer@example.com");

  const stored = <T>(path: string) => web.page.evaluate(async (url) => (await fetch(url)).json() as Promise<T>, path);

  it("keeps the photo code out of the first load", () => {
    expect(firstLoadJsGzipBytes()).toBeLessThan(150 * 1024);
  });

  it("reads a console photo, lets the distance be corrected, and saves it; Cancel saves nothing", async () => {
    const photo = await consolePhoto({ kind: "treadmill", durationS: 1812, distanceKm: 5.02, kcal: 320, avgHr: 145 }, { font: "DejaVu Sans Mono", sizePt: 26, degradation: CLEAN, seed: 41 });
    await web.page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Workouts", exact: true }).click();
    const card = web.page.getByRole("region", { name: "Log from photo" });
    const input = card.locator('input[type="file"]');
    expect(await input.getAttribute("accept")).toBe("image/*");
    expect(await input.getAttribute("capture")).toBe("environment");

    await input.setInputFiles({ name: "console.jpg", mimeType: "image/jpeg", buffer: photo });
    const form = web.page.getByRole("form", { name: "Workout read from the photo" });
    await form.waitFor(POLL);
    expect(await form.getByLabel("Distance (km)").inputValue()).toBe("5.02");
    expect(await form.getByLabel("Duration (min)").inputValue()).toBe("30.2");
    expect(await form.getByLabel("Energy (kcal)").inputValue()).toBe("320");
    expect(await form.getByText(/What was read \(ocr, \d+ % sure\)/).count()).toBe(1);
    expect((await stored<{ items: unknown[] }>("/api/workouts")).items).toEqual([]);
    await expectNoSeriousViolations(web.page, "workout photo preview");

    await form.getByRole("button", { name: "Cancel" }).click();
    expect(await form.count()).toBe(0);
    expect((await stored<{ items: unknown[] }>("/api/workouts")).items).toEqual([]);

    await input.setInputFiles({ name: "console.jpg", mimeType: "image/jpeg", buffer: photo });
    await form.waitFor(POLL);
    await form.getByLabel("Distance (km)").fill("5.1");
    await form.getByRole("button", { name: "Save workout" }).click();
    await expect.poll(() => card.getByRole("status").textContent(), POLL).toContain("Saved: Run 5.10 km");
    const [workout] = (await stored<{ items: Record<string, unknown>[] }>("/api/workouts")).items;
    expect(workout).toMatchObject({ source: "manual", activityType: "run", durationS: 1812, distanceM: 5100, energyKcal: 320, avgHr: 145 });
  });

  it("reads a label for the servings given and logs it keeping its ocr range; a refusal shows what was read, and reads again with the grams", async () => {
    await web.page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Food", exact: true }).click();
    const card = web.page.getByRole("region", { name: "Log from photo" });
    await card.waitFor(POLL);
    const input = card.locator('input[type="file"]');
    expect(await input.getAttribute("capture")).toBe("environment");

    // Per 100 g and no grams given: refused, with the text read, and read again once the grams are given.
    const eu = await labelPhoto({ layout: "eu", servingG: 30, kcal: 250, proteinG: 8.1 }, { font: "DejaVu Sans", sizePt: 24, degradation: CLEAN, seed: 42 });
    await input.setInputFiles({ name: "label.jpg", mimeType: "image/jpeg", buffer: eu });
    const alert = card.getByRole("alert");
    await expect.poll(() => alert.textContent(), POLL).toMatch(/grams eaten.*What was read:.*1046 kJ/s);
    await expectNoSeriousViolations(web.page, "food photo refused");
    await card.getByLabel("or grams eaten").fill("40");
    await card.getByRole("button", { name: "Read again with this amount" }).click();
    const form = web.page.getByRole("form", { name: "Food read from the label" });
    await form.waitFor(POLL);
    expect(await form.getByLabel("kcal").inputValue()).toBe("100");
    await form.getByRole("button", { name: "Cancel" }).click();

    const us = await labelPhoto({ layout: "us", servingG: 30, kcal: 120, proteinG: 5 }, { font: "DejaVu Sans", sizePt: 24, degradation: CLEAN, seed: 43 });
    await card.getByLabel("or grams eaten").fill("");
    await card.getByLabel("Servings eaten").fill("2");
    await input.setInputFiles({ name: "label.jpg", mimeType: "image/jpeg", buffer: us });
    await form.waitFor(POLL);
    expect(await form.getByLabel("kcal").inputValue()).toBe("240");
    expect(await form.getByLabel("Protein (g)").inputValue()).toBe("10");
    await expectNoSeriousViolations(web.page, "food photo preview");
    await form.getByLabel("Food").fill("Granola");
    await form.getByLabel("Meal").selectOption("breakfast");
    await form.getByRole("button", { name: "Save food" }).click();
    await expect.poll(() => card.getByRole("status").textContent(), POLL).toContain("Logged Granola: 240 kcal");
    const day = new Date();
    const today = `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, "0")}-${String(day.getDate()).padStart(2, "0")}`;
    const items = await stored<Record<string, unknown>[]>(`/api/nutrition/items?date=${today}`);
    expect(items).toEqual([expect.objectContaining({ name: "Granola", meal: "breakfast", kcal: 240, proteinG: 10, estimate: { source: "ocr", kcal: { low: 192, high: 288 }, proteinG: { low: 8, high: 12 } } })]);
    // The day's list shows it without reloading.
    await expect.poll(() => web.page.getByRole("region", { name: "breakfast" }).textContent(), POLL).toContain("Granola");
  });

  it("marks a field that does not fit the others, left empty to fill in", async () => {
    // 40 km run in 30 minutes: no one keeps that pace, so the distance is a misread, flagged and left out.
    const photo = await consolePhoto({ kind: "treadmill", durationS: 1812, distanceKm: 40, kcal: 320, avgHr: 145 }, { font: "DejaVu Sans Mono", sizePt: 26, degradation: CLEAN, seed: 44 });
    await web.page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Workouts", exact: true }).click();
    const card = web.page.getByRole("region", { name: "Log from photo" });
    await card.locator('input[type="file"]').setInputFiles({ name: "console.jpg", mimeType: "image/jpeg", buffer: photo });
    const form = web.page.getByRole("form", { name: "Workout read from the photo" });
    await form.waitFor(POLL);
    const distance = form.getByLabel("Distance (km)");
    expect(await distance.inputValue()).toBe("");
    expect(await distance.getAttribute("class")).toBe("unsure");
    expect(await form.getByText("Check this: read with low confidence").count()).toBe(1);
    await form.getByRole("button", { name: "Cancel" }).click();
  });
});
