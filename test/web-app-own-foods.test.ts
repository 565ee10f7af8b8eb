// The person's own foods and recipes in a real browser (Debian's Chromium driven by Playwright) against the whole
// platform: a food made from its label, a recipe built by searching its ingredients with their grams, its figures
// per serving previewed and saved, then found by the Food page's search and a serving of it logged.
import { describe, expect, it } from "vitest";
import { expectNoSeriousViolations } from "./support/axe.ts";
import { firstLoadJsGzipBytes, signedInWebApp } from "./support/web-app.ts";

const POLL = { timeout: 15_000 };

describe("my foods and recipes", () => {
  const web = signedInWebApp("cook@example.com");

  it("keeps the first load under 150 KB compressed: the screen is fetched when first opened", () => {
    expect(firstLoadJsGzipBytes()).toBeLessThan(150 * 1024);
  });

  it("makes a food from its label, builds a recipe of it and a banana, and logs a serving of the recipe", async () => {
    await web.page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Food", exact: true }).click();
    await web.page.getByRole("link", { name: "My foods and recipes" }).click();
    await web.page.getByRole("heading", { name: "My foods and recipes", level: 1 }).waitFor();
    await expectNoSeriousViolations(web.page, "my foods and recipes, empty");

    // A granola bar from its label: 180 kcal and 4 g protein per 40 g bar.
    const newFood = web.page.getByRole("form", { name: "New food" });
    await newFood.getByLabel("Name").fill("Oat granola bar");
    await newFood.getByLabel("Figures per").selectOption("serving");
    await newFood.getByLabel("Serving (g)").fill("40");
    await newFood.getByLabel("kcal").fill("180");
    await newFood.getByLabel("Protein (g)").fill("4");
    await newFood.getByRole("button", { name: "Add food" }).click();
    const myFoods = web.page.getByRole("region", { name: "My foods" });
    await myFoods.getByRole("listitem").filter({ hasText: "Oat granola bar" }).waitFor(POLL);
    expect(await myFoods.getByRole("listitem").filter({ hasText: "Oat granola bar" }).textContent()).toContain("450 kcal · 10 g protein per 100 g");

    // A refused number is named by its label, and nothing is made.
    await newFood.getByLabel("Name").fill("Mystery bar");
    await newFood.getByLabel("Figures per").selectOption("serving");
    await newFood.getByLabel("kcal").fill("100");
    await newFood.getByLabel("Protein (g)").fill("2");
    await newFood.getByRole("button", { name: "Add food" }).click();
    await expect.poll(() => newFood.getByRole("alert").textContent(), POLL).toContain("Serving (g) is required");

    const recipe = web.page.getByRole("form", { name: "New recipe" });
    await recipe.getByLabel("Recipe name").fill("Banana oat smoothie");
    await recipe.getByLabel("Servings").fill("2");
    const find = recipe.getByLabel("Find an ingredient");
    await find.pressSequentially("banana", { delay: 30 });
    await recipe.getByRole("button", { name: "Add Bananas, raw" }).click();
    await recipe.getByLabel("Grams of Bananas, raw").fill("120");
    await find.pressSequentially("granola", { delay: 30 });
    const mine = recipe.getByRole("list", { name: "Ingredients found" }).getByRole("listitem").first();
    await expect.poll(() => mine.textContent(), POLL).toContain("Oat granola bar");
    await mine.getByRole("button").click();
    await recipe.getByLabel("Grams of Oat granola bar").fill("40");
    // 120 g of banana (89 kcal per 100 g) and a 40 g bar (180 kcal), in two servings.
    await expect.poll(() => recipe.getByTestId("recipe-preview").textContent(), POLL).toContain("Per serving: 143.4 kcal · 2.7 g protein");
    await expectNoSeriousViolations(web.page, "recipe builder");
    await recipe.getByRole("button", { name: "Save recipe" }).click();
    const recipes = web.page.getByRole("region", { name: "Recipes" });
    await expect.poll(() => recipes.getByRole("status").textContent(), POLL).toContain("Saved Banana oat smoothie: 143.4 kcal per serving");
    expect(await recipes.getByRole("listitem").filter({ hasText: "Banana oat smoothie" }).textContent()).toContain("2 servings of 80 g");

    await web.page.getByRole("link", { name: "← Back to Food" }).click();
    const search = web.page.getByRole("combobox", { name: "Search foods" });
    await search.pressSequentially("smoothie", { delay: 30 });
    await web.page.getByRole("listbox", { name: "Foods found" }).getByRole("option", { name: /^Banana oat smoothie\b/ }).click();
    const form = web.page.getByRole("form", { name: "Log Banana oat smoothie" });
    await form.waitFor();
    expect(await form.getByLabel("Portion").locator("option:checked").textContent()).toBe("1 serving (80 g)");
    await expect.poll(() => form.getByTestId("portion-preview").textContent(), POLL).toContain("80 g: 143.4 kcal");
    await form.getByRole("button", { name: "Add" }).click();
    // The day's item (it has Delete), not the same food among the recent foods beside the search.
    const item = web.page.getByRole("listitem").filter({ hasText: "Banana oat smoothie", has: web.page.getByRole("button", { name: "Delete Banana oat smoothie" }) });
    await item.waitFor(POLL);
    expect(await item.textContent()).toContain("143.4 kcal");
    expect(await item.locator(".badge").textContent()).toBe("Recipe");
    await expectNoSeriousViolations(web.page, "food day with a recipe");
    expect(web.cspViolations).toEqual([]);
  });
});
