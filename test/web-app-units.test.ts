// The web app in pounds, stones and inches (Debian's Chromium driven by Playwright) against the whole platform:
// the units set in Settings → Profile, a weight typed in pounds stored in kg and shown as typed, stones, inches,
// a goal, and the API's refusal restated in pounds (docs/decisions/0071-units-are-a-client-concern.md).
import { describe, expect, it } from "vitest";
import { expectNoSeriousViolations } from "./support/axe.ts";
import { signedInWebApp } from "./support/web-app.ts";

/** A loaded CI machine may take seconds to show what a write changed: poll for that long, not vitest's 1 s. */
const POLL = { timeout: 15_000 };

describe("the web app in the profile's units", () => {
  const web = signedInWebApp("pounds@example.com");

  /** What the API holds, asked from the page (its session): the screen is checked against the stored kg and cm. */
  const stored = <T>(path: string) => web.page.evaluate(async (url) => (await fetch(url)).json() as Promise<T>, path);
  const open = async (link: string) => {
    await web.page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: link, exact: true }).click();
    await web.page.getByRole("heading", { name: link, level: 1 }).waitFor();
  };
  const chooseUnits = async (label: string) => {
    await open("Settings");
    const profile = web.page.getByRole("region", { name: "Profile" });
    await profile.getByLabel("Units").selectOption({ label });
    await profile.getByRole("button", { name: "Save profile" }).click();
    await profile.getByRole("status").filter({ hasText: "Saved." }).waitFor(POLL);
  };


  it("sets imperial units and a height in feet and inches in Settings → Profile, offering the browser's time zone", async () => {
    await open("Settings");
    const profile = web.page.getByRole("region", { name: "Profile" });
    const zone = await web.page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(await profile.getByLabel("Time zone").inputValue()).toBe(zone);
    await profile.getByLabel("Units").selectOption({ label: "Imperial: lb and in" });
    await profile.getByLabel("Height (in)").fill("5 ft 11 in");
    await profile.getByLabel("Birth year").fill("1985");
    await profile.getByLabel("First day of the week").selectOption({ label: "Sunday" });
    await profile.getByRole("button", { name: "Save profile" }).click();
    await profile.getByRole("status").filter({ hasText: "Saved." }).waitFor(POLL);
    expect(await stored("/api/profile")).toMatchObject({ units: "imperial", heightCm: 180.34, birthYear: 1985, timeZone: zone, firstDayOfWeek: "sunday" });
    await expectNoSeriousViolations(web.page, "settings with the profile");
  });

  it("takes 180.0 lb, stores 81.65 kg and shows 180.0 lb in the list and on Home; a typed kg wins", async () => {
    await open("Weight");
    const form = web.page.getByRole("form", { name: "Log a weigh-in" });
    await form.getByLabel("Weight (lb)").fill("180.0");
    await form.getByRole("button", { name: "Log weight" }).click();
    const list = web.page.getByRole("list", { name: "Weigh-ins" });
    await list.getByText("180.0 lb", { exact: true }).waitFor(POLL);
    expect((await stored<{ items: { weightKg: number }[] }>("/api/weight")).items.map((r) => r.weightKg)).toEqual([81.65]);
    await expectNoSeriousViolations(web.page, "weight in pounds");

    await form.getByLabel("Weight (lb)").fill("81,4 kg");
    await form.getByRole("button", { name: "Log weight" }).click();
    await list.getByText("179.5 lb", { exact: true }).waitFor(POLL);
    expect((await stored<{ items: { weightKg: number }[] }>("/api/weight")).items.map((r) => r.weightKg).sort()).toEqual([81.4, 81.65]);

    await form.getByLabel("Weight (lb)").fill("800");
    await form.getByRole("button", { name: "Log weight" }).click();
    await web.page.getByRole("alert").filter({ hasText: "Weight (lb) must be between 19.8 lb and 705.5 lb" }).waitFor(POLL);

    await open("Home");
    expect(await web.page.getByTestId("latest-weight").textContent()).toMatch(/^(180\.0|179\.5) lb$/);
  });

  it("takes a waist of 32 in as 81.28 cm and a goal of 170 lb as 77.11 kg, shown again in inches and pounds", async () => {
    await open("Measurements");
    await web.page.getByLabel("Value (in)").fill("32");
    await web.page.getByRole("button", { name: "Add", exact: true }).click();
    await web.page.getByRole("list", { name: "Measurements" }).getByText("32.0 in").waitFor(POLL);
    expect((await stored<{ items: { valueCm: number }[] }>("/api/measurements")).items.map((m) => m.valueCm)).toEqual([81.28]);

    await open("Targets");
    await web.page.getByLabel("Goal weight (lb)").fill("170");
    await web.page.getByRole("button", { name: "Save targets" }).click();
    await web.page.getByRole("status").filter({ hasText: "Saved." }).waitFor(POLL);
    expect(await stored("/api/targets")).toMatchObject({ goalWeightKg: 77.11 });
    await web.page.reload();
    await web.page.getByRole("heading", { name: "Targets", level: 1 }).waitFor();
    expect(await web.page.getByLabel("Goal weight (lb)").inputValue()).toBe("170.0");
  });

  it("shows stones and pounds, and reads a weight typed in stones", async () => {
    await chooseUnits("Imperial with stones: st and lb, in");
    await open("Weight");
    const list = web.page.getByRole("list", { name: "Weigh-ins" });
    await list.getByText("12 st 12.0 lb", { exact: true }).waitFor(POLL);
    const form = web.page.getByRole("form", { name: "Log a weigh-in" });
    await form.getByLabel("Weight (st and lb)").fill("12 st 8");
    await form.getByRole("button", { name: "Log weight" }).click();
    await list.getByText("12 st 8.0 lb", { exact: true }).waitFor(POLL);
    expect((await stored<{ items: { weightKg: number }[] }>("/api/weight")).items.map((r) => r.weightKg)).toContain(79.83);
    await expectNoSeriousViolations(web.page, "weight in stones");

    await chooseUnits("Metric: kg and cm");
    await open("Weight");
    await list.getByText("81.65 kg", { exact: true }).waitFor(POLL);
  });
});
