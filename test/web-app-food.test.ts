// The Food page's food database in a real browser (Debian's Chromium driven by Playwright) against the whole
// platform: a search typed with typos, a food picked from the keyboard, a household measure × 1.5 previewed and
// logged, 150 g of banana, and the day's items with their computed kcal, fiber and USDA provenance.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectNoSeriousViolations } from "./support/axe.ts";
import { NUTELLA, startOpenFoodFacts, type OpenFoodFactsStandIn } from "./support/open-food-facts.ts";
import { firstLoadJsGzipBytes, signedInWebApp } from "./support/web-app.ts";

/** A loaded CI machine may take seconds to show what a write changed: poll for that long, not vitest's 1 s. */
const POLL = { timeout: 15_000 };
const CHICKEN_BREAST = /^Chicken, broilers or fryers, breast, meat only, (cooked, roasted|raw)$/;

interface Food {
  id: string;
  name: string;
  per100g: { kcal: number; proteinG: number; fatG: number | null; carbsG: number | null; fiberG: number | null };
  portions: { id: number; amount: number; unit: string; grams: number }[];
}

/** The nutrition service's rounding: what the item stores. */
const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;

describe("the Food page's food database", () => {
  let openFoodFacts: OpenFoodFactsStandIn;
  beforeAll(async () => {
    openFoodFacts = await startOpenFoodFacts();
  });
  afterAll(async () => {
    await openFoodFacts?.close();
  });
  const web = signedInWebApp("eater@example.com", () => ({ FOOD_BARCODE_URL: openFoodFacts.url }));

  /** A food as the API has it, asked from the page (its session) so the test checks the screen against the API's own numbers. */
  const apiFood = (id: string) => web.page.evaluate(async (path) => (await fetch(path)).json() as Promise<Food>, `/api/foods/${id}`);
  const idOf = (query: string, name: string) =>
    web.page.evaluate(async ([q, wanted]) => {
      const found = (await (await fetch(`/api/foods?q=${encodeURIComponent(q!)}&limit=10`)).json()) as { id: string; name: string }[];
      return found.find((food) => food.name === wanted)!.id;
    }, [query, name]);


  it("keeps the first load under 150 KB compressed with the search on the Food page", () => {
    expect(firstLoadJsGzipBytes()).toBeLessThan(150 * 1024);
  });

  it("finds chicken breast typed as “chiken brest”, logs 1.5 of a household measure from the keyboard, then 150 g of banana", async () => {
    await web.page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Food", exact: true }).click();
    await web.page.getByRole("heading", { name: "Food", level: 1 }).waitFor();
    const search = web.page.getByRole("combobox", { name: "Search foods" });
    await search.pressSequentially("chiken brest", { delay: 30 });
    const results = web.page.getByRole("listbox", { name: "Foods found" });
    await results.getByRole("option").first().waitFor();
    expect(await search.getAttribute("aria-expanded")).toBe("true");
    await expectNoSeriousViolations(web.page, "food search");

    // Picked from the keyboard: down to the chicken breast, Enter.
    const names = await results.getByRole("option").evaluateAll((options) => options.map((option) => option.firstChild?.textContent?.trim() ?? ""));
    const index = names.findIndex((name) => CHICKEN_BREAST.test(name));
    expect(index, names.join("\n")).toBeGreaterThanOrEqual(0);
    const name = names[index]!;
    for (let step = 0; step <= index; step++) await search.press("ArrowDown");
    expect(await web.page.locator("[aria-selected=true]").textContent()).toContain(name);
    await search.press("Enter");
    const chickenForm = web.page.getByRole("form", { name: `Log ${name}` });
    await chickenForm.waitFor();
    expect(await results.isHidden()).toBe(true);

    const chicken = await apiFood(await idOf("chiken brest", name));
    const measure = chicken.portions[0]!;
    await chickenForm.getByLabel("Portion").selectOption({ label: `${measure.amount} ${measure.unit} (${measure.grams} g)` });
    await chickenForm.getByLabel("How many").fill("1.5");
    await chickenForm.getByLabel("Meal").selectOption("lunch");
    const grams = round(measure.grams * 1.5, 2);
    const kcal = round((chicken.per100g.kcal * grams) / 100, 1);
    const fiber = chicken.per100g.fiberG === null ? null : round((chicken.per100g.fiberG * grams) / 100, 2);
    const preview = chickenForm.getByTestId("portion-preview");
    await expect.poll(() => preview.textContent(), POLL).toContain(`${round(grams, 1)} g: ${kcal} kcal`);
    if (fiber !== null) expect(await preview.textContent()).toContain(`${fiber} g fiber`);
    await chickenForm.getByRole("button", { name: "Add" }).click();

    const lunch = web.page.getByRole("region", { name: "lunch" });
    const chickenItem = lunch.getByRole("listitem").filter({ hasText: name });
    await chickenItem.waitFor(POLL);
    expect(await chickenItem.textContent()).toContain(`${kcal} kcal`);
    if (fiber !== null) expect(await chickenItem.textContent()).toContain(`${fiber} g fiber`);
    expect(await chickenItem.locator(".badge").textContent()).toBe("USDA");
    // The search is empty and focused again, the meal still lunch: the next food of the meal is typed straight away.
    expect(await search.inputValue()).toBe("");
    expect(await web.page.evaluate("document.activeElement?.id")).toBe("food-search");

    await search.pressSequentially("banana", { delay: 30 });
    await results.getByRole("option", { name: /^Bananas, raw\b/ }).click();
    const bananaForm = web.page.getByRole("form", { name: "Log Bananas, raw" });
    await bananaForm.waitFor();
    expect(await bananaForm.getByLabel("Meal").inputValue()).toBe("lunch");
    await bananaForm.getByLabel("Portion").selectOption("grams");
    await bananaForm.getByLabel("Grams").fill("150");
    const banana = await apiFood(await idOf("banana", "Bananas, raw"));
    const bananaKcal = round(banana.per100g.kcal * 1.5, 1);
    const bananaFiber = round(banana.per100g.fiberG! * 1.5, 2);
    await expect.poll(() => bananaForm.getByTestId("portion-preview").textContent(), POLL)
      .toBe(`150 g: ${bananaKcal} kcal · ${round(banana.per100g.proteinG * 1.5, 2)} g protein · ${round(banana.per100g.fatG! * 1.5, 2)} g fat · ` +
        `${round(banana.per100g.carbsG! * 1.5, 2)} g carbs · ${bananaFiber} g fiber`);
    await bananaForm.getByRole("button", { name: "Add" }).click();
    const bananaItem = lunch.getByRole("listitem").filter({ hasText: "Bananas, raw" });
    await bananaItem.waitFor(POLL);
    expect(await bananaItem.textContent()).toContain(`${bananaKcal} kcal`);
    expect(await bananaItem.textContent()).toContain(`${bananaFiber} g fiber`);

    // The day's totals count both, fiber beside fat and carbs.
    await expect.poll(() => web.page.getByTestId("day-total").textContent(), POLL).toContain(`${Math.round(kcal + bananaKcal)} kcal`);
    expect(await web.page.getByTestId("day-macros").textContent()).toContain(`${Math.round((fiber ?? 0) + bananaFiber)} g fiber`);
    await expectNoSeriousViolations(web.page, "food day");
    expect(web.cspViolations).toEqual([]);
  });

  it("looks a typed barcode up and logs two servings of the product; a mistyped one is refused in words", async () => {
    const search = web.page.getByRole("combobox", { name: "Search foods" });
    await search.fill("3017620422004");
    await expect.poll(() => web.page.getByRole("alert").textContent(), POLL).toMatch(/check digit/);
    await search.fill(NUTELLA.code);
    const form = web.page.getByRole("form", { name: "Log Nutella (Ferrero)" });
    await form.waitFor(POLL);
    expect(await form.locator(".badge").textContent()).toBe("Open Food Facts");
    expect(await web.page.getByRole("alert").count()).toBe(0);
    await form.getByLabel("Portion").selectOption({ label: "1 serving (15 g) (15 g)" });
    await form.getByLabel("How many").fill("2");
    await expect.poll(() => form.getByTestId("portion-preview").textContent(), POLL).toBe("30 g: 161.7 kcal · 1.89 g protein · 9.27 g fat · 17.25 g carbs · 0 g fiber");
    await expectNoSeriousViolations(web.page, "barcode food");
    await form.getByRole("button", { name: "Add" }).click();
    // The day's item (it has Delete), not the same food among the recent foods beside the search.
    const item = web.page.getByRole("listitem").filter({ hasText: "Nutella (Ferrero)", has: web.page.getByRole("button", { name: "Delete Nutella (Ferrero)" }) });
    await item.waitFor(POLL);
    expect(await item.textContent()).toContain("161.7 kcal");
  });

  it("offers recent foods on an empty search, and logs yesterday's lunch again as today's dinner", async () => {
    interface Item { name: string; meal: string | null; kcal: number; proteinG: number; fatG: number | null; carbsG: number | null; fiberG: number | null }
    const day = (offset: number) => {
      const at = new Date(Date.now() + offset * 86_400_000);
      return `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, "0")}-${String(at.getDate()).padStart(2, "0")}`;
    };
    const itemsOn = (date: string) => web.page.evaluate(async (path) => (await fetch(path)).json() as Promise<Item[]>, `/api/nutrition/items?date=${date}`);
    /** The day's macros as the page should word them, from the API's own items: sums of what is known, "at least" while some lack them. */
    const macrosOf = (items: Item[]) => {
      const sum = (field: "fatG" | "carbsG" | "fiberG") => {
        const known = items.map((item) => item[field]).filter((value): value is number => value !== null);
        return known.length ? `${Math.round(known.reduce((a, b) => a + b, 0))} g` : "–";
      };
      const unknown = items.filter((item) => item.fatG === null || item.carbsG === null || item.fiberG === null).length;
      const sums = `${sum("fatG")} fat · ${sum("carbsG")} carbs · ${sum("fiberG")} fiber`;
      return unknown === 0 ? sums : `at least ${sums} (${unknown} item${unknown === 1 ? "" : "s"} without them)`;
    };
    const total = web.page.getByTestId("day-total");
    const macros = web.page.getByTestId("day-macros");

    await web.page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Food", exact: true }).click();
    await web.page.getByRole("region", { name: "lunch" }).getByRole("listitem").first().waitFor(POLL);
    const before = await itemsOn(day(0));
    const kcalBefore = before.reduce((sum, item) => sum + item.kcal, 0);
    expect(await total.textContent()).toContain(`${Math.round(kcalBefore)} kcal`);
    const macrosBefore = macrosOf(before);
    expect(await macros.textContent()).toBe(macrosBefore);

    // Yesterday: the empty search offers the foods logged today; one is picked from there, another typed by hand.
    await web.page.getByRole("link", { name: "← Previous day" }).click();
    await web.page.getByText("Nothing logged on this day.").waitFor(POLL);
    const recent = web.page.getByRole("region", { name: "Recent foods" });
    const bananaButton = recent.getByRole("button", { name: "Bananas, raw" });
    await bananaButton.waitFor(POLL);
    await recent.getByRole("button", { name: CHICKEN_BREAST }).waitFor();
    await expectNoSeriousViolations(web.page, "recent foods");
    await bananaButton.click();
    const bananaForm = web.page.getByRole("form", { name: "Log Bananas, raw" });
    await bananaForm.getByLabel("Portion").selectOption("grams");
    await bananaForm.getByLabel("Grams").fill("200");
    await bananaForm.getByLabel("Meal").selectOption("lunch");
    await bananaForm.getByRole("button", { name: "Add" }).click();
    const yesterdayLunch = web.page.getByRole("region", { name: "lunch" });
    await yesterdayLunch.getByRole("listitem").filter({ hasText: "Bananas, raw" }).waitFor(POLL);
    // Typed without fiber: its copy leaves today's fiber a sum of what is known.
    await web.page.locator("#food-name").fill("yogurt");
    await web.page.locator("#food-kcal").fill("150");
    await web.page.locator("#food-proteinG").fill("10");
    await web.page.locator("#food-fatG").fill("4");
    await web.page.locator("#food-carbsG").fill("12");
    await web.page.locator("#food-meal").selectOption("lunch");
    await web.page.getByRole("button", { name: "Add", exact: true }).click();
    await yesterdayLunch.getByRole("listitem").filter({ hasText: "yogurt" }).waitFor(POLL);

    await yesterdayLunch.getByRole("button", { name: "Log again: lunch" }).click();
    const copyForm = web.page.getByRole("form", { name: "Log again: lunch" });
    expect(await copyForm.getByLabel("To day").inputValue()).toBe(day(0));
    await copyForm.getByLabel("Meal").selectOption("dinner");
    await expectNoSeriousViolations(web.page, "log a meal again");
    await copyForm.getByRole("button", { name: "Log again" }).click();
    const copied = web.page.getByRole("status").filter({ hasText: "Logged 2 items again on today (dinner)." });
    await copied.waitFor(POLL);
    // Yesterday keeps its lunch.
    expect(await yesterdayLunch.getByRole("listitem").count()).toBe(2);

    await copied.getByRole("link", { name: "today" }).click();
    const dinner = web.page.getByRole("region", { name: "dinner" });
    await dinner.getByRole("listitem").filter({ hasText: "Bananas, raw" }).waitFor(POLL);
    await dinner.getByRole("listitem").filter({ hasText: "yogurt" }).waitFor();
    const after = await itemsOn(day(0));
    expect(after.filter((item) => item.meal === "dinner").map((item) => item.name).sort()).toEqual(["Bananas, raw", "yogurt"]);
    const kcalAfter = after.reduce((sum, item) => sum + item.kcal, 0);
    expect(Math.round(kcalAfter)).toBeGreaterThan(Math.round(kcalBefore) + 150);
    await expect.poll(() => total.textContent(), POLL).toContain(`${Math.round(kcalAfter)} kcal`);
    const macrosAfter = macrosOf(after);
    expect(macrosAfter).not.toBe(macrosBefore);
    expect(macrosAfter).toMatch(/^at least \d+ g fat · \d+ g carbs · \d+ g fiber \(\d+ items? without them\)$/);
    expect(await macros.textContent()).toBe(macrosAfter);

    // Home's Today tile has the same day, with the API's own sums.
    await web.page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Home", exact: true }).click();
    await expect.poll(() => web.page.getByTestId("today-macros").textContent(), POLL).toBe(macrosAfter);
    expect(await web.page.getByTestId("today-energy").textContent()).toContain(`${Math.round(kcalAfter)}`);
    await expectNoSeriousViolations(web.page, "home with macros");
    expect(web.cspViolations).toEqual([]);
  });
});
