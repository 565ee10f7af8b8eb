// Settings → Import in a real browser (Debian's Chromium driven by Playwright) against the whole platform: a
// weigh-in CSV picked and uploaded, followed until the server has read it, its counts and the refused row with
// why, the past imports, and Undo (confirmed) removing exactly its rows, checked through the API.
import { describe, expect, it } from "vitest";
import { expectNoSeriousViolations } from "./support/axe.ts";
import { firstLoadJsGzipBytes, signedInWebApp } from "./support/web-app.ts";

const POLL = { timeout: 20_000 };
const DESKTOP = { width: 1280, height: 860 };
const PHONE = { width: 390, height: 844 };

/** A Withings export read in Berlin: three readings and one the contracts refuse (900 kg). */
const WITHINGS = 'Date,"Weight (kg)","Fat mass (kg)","Bone mass (kg)","Muscle mass (kg)","Hydration (kg)",Comments\n' +
  '"2026-11-20 07:30:00",82.00,16.40,3.1,60.2,44.9,\n"2026-11-21 07:30:00",81.80,,,,,\n"2026-11-22 07:30:00",900,,,,,\n' +
  '"2026-11-23 07:30:00",81.50,16.30,3.1,60.2,44.9,\n';

describe("Settings → Import", () => {
  const web = signedInWebApp("importer@example.com");

  /** What the API holds, asked from the page (its session). */
  const stored = <T>(path: string) => web.page.evaluate(async (url) => (await fetch(url)).json() as Promise<T>, path);
  const weights = async () => (await stored<{ items: { weightKg: number; ts: number }[] }>("/api/weight")).items;

  it("keeps the first load under 150 KB compressed: the import screen is fetched when first opened", () => {
    expect(firstLoadJsGzipBytes()).toBeLessThan(150 * 1024);
  });

  it("uploads a weigh-in CSV, follows it to its counts and refused row, lists it, and Undo removes its rows", async () => {
    await web.page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings", exact: true }).click();
    await web.page.getByRole("link", { name: "Import your history" }).click();
    await web.page.getByRole("heading", { name: "Import your history", level: 1 }).waitFor();
    await expect.poll(() => web.page.getByRole("region", { name: "Past imports" }).textContent(), POLL).toContain("No imports yet.");
    await expectNoSeriousViolations(web.page, "import, empty");

    const form = web.page.getByRole("form", { name: "New import" });
    await form.getByLabel("File").setInputFiles({ name: "withings-weight.csv", mimeType: "text/csv", buffer: Buffer.from(WITHINGS) });
    await form.getByLabel("Time zone of times written without one").fill("Europe/Berlin");
    await form.getByRole("button", { name: "Import" }).click();

    const followed = web.page.getByTestId("import-followed");
    await expect.poll(() => followed.getByRole("status").textContent(), POLL).toContain("Done");
    expect(await followed.getByRole("heading").textContent()).toBe("withings-weight.csv");
    const counts = (await followed.locator("dl").innerText()).replace(/\s+/g, " ");
    expect(counts).toBe("Rows read 4 Added (weigh-ins) 3 Already stored 0 Refused 1");
    const refused = followed.getByRole("table", { name: "Refused rows of withings-weight.csv" });
    expect((await refused.getByRole("row").nth(1).innerText()).replace(/\s+/g, " ")).toBe("4 weightKg must be between 9 and 320 kg");
    // 07:30 in Berlin is 06:30 UTC; the fat mass is a share of the weight.
    expect(await weights()).toEqual([
      expect.objectContaining({ weightKg: 81.5, ts: Date.UTC(2026, 10, 23, 6, 30), bodyFatPct: 20 }),
      expect.objectContaining({ weightKg: 81.8, ts: Date.UTC(2026, 10, 21, 6, 30), bodyFatPct: null }),
      expect.objectContaining({ weightKg: 82, ts: Date.UTC(2026, 10, 20, 6, 30), bodyFatPct: 20 }),
    ]);

    const past = web.page.getByRole("list", { name: "Past imports" }).getByRole("listitem");
    await expect.poll(() => past.count(), POLL).toBe(1);
    expect(await past.first().textContent()).toContain("3 added, 0 already stored, 1 refused");
    await expectNoSeriousViolations(web.page, "import, done");

    // Phone width: nothing wider than the screen.
    await web.page.setViewportSize(PHONE);
    expect(await web.page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")).toBe(true);
    await web.page.setViewportSize(DESKTOP);

    // Undo asks first; keeping it changes nothing.
    await followed.getByRole("button", { name: "Undo withings-weight.csv" }).click();
    await followed.getByRole("group", { name: "Confirm undoing withings-weight.csv" }).getByRole("button", { name: "Keep it" }).click();
    expect(await weights()).toHaveLength(3);
    await followed.getByRole("button", { name: "Undo withings-weight.csv" }).click();
    const confirm = followed.getByRole("group", { name: "Confirm undoing withings-weight.csv" });
    expect(await confirm.textContent()).toContain("Remove the 3 rows it added?");
    await expectNoSeriousViolations(web.page, "import, confirming undo");
    await confirm.getByRole("button", { name: "Yes, undo" }).click();
    await expect.poll(() => followed.getByRole("status").textContent(), POLL).toContain("Undone");
    expect(await weights()).toEqual([]);
    await expect.poll(() => past.first().textContent(), POLL).toContain("Undone");
    expect(await past.first().getByRole("button").count()).toBe(0);
    const [summary] = (await stored<{ items: { state: string; counts: { created: number } }[] }>("/api/imports")).items;
    expect(summary).toMatchObject({ state: "undone", counts: { created: 3 } });
  });

  it("shows the API's reason when the file is not one it reads, and starts nothing", async () => {
    const form = web.page.getByRole("form", { name: "New import" });
    await form.getByLabel("File").setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("dear diary\nran today\n") });
    await form.getByRole("button", { name: "Import" }).click();
    await expect.poll(() => form.getByRole("alert").textContent(), POLL).toContain("is not one of an export this import reads");
    expect((await stored<{ items: unknown[] }>("/api/imports")).items).toHaveLength(1);
  });
});
