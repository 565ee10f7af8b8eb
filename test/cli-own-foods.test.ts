// `fit food custom …` and `fit recipe …` as the compiled binary against the whole platform: a food of one's own
// from its label, a recipe from foods and amounts, each logged by `fit food add --food <id> --portion …`.
import { describe, expect, it } from "vitest";
import { cliPlatform } from "./support/cli.ts";

const BANANA = "usda:173944"; // Bananas, raw: 89 kcal, 1.09 g protein per 100 g
const date = "2026-11-20";

const platform = cliPlatform("own-foods");

const { person } = platform;

describe("fit food custom", () => {
  it("adds a food per serving with a measure, lists, edits and deletes it, and logs it by servings", async () => {
    const { fit, json } = await person();
    const added = await fit(
      "food", "custom", "add", "Oat granola bar", "--brand", "Homemade", "--per", "serving", "--serving", "40g", "--kcal", "180",
      "--protein", "4", "--fat", "7", "--carbs", "26", "--fiber", "3", "--measure", "half bar=20g",
    );
    expect(added).toMatchObject({ code: 0, stderr: "" });
    const id = /id +│ (custom:[0-9a-f-]{36})/.exec(added.stdout)?.[1];
    expect(id).toBeDefined();
    expect(added.stdout).toMatch(/per serving \(40 g\) +│ 180 kcal · 4 g protein · 7 g fat · 26 g carbs · 3 g fiber/);
    expect(added.stdout).toContain(`Log it: fit food add --food ${id} --portion 1serving`);

    expect((await fit("food", "custom", "list")).stdout).toMatch(new RegExp(`│ ${id} │ Oat granola bar \\(Homemade\\) │ 450 +│ 10 +│ 17\\.5 +│ 65 +│ 7\\.5 +│ 40 +│`));
    expect((await json("food", "search", "granola", "--limit", "2"))[0]).toMatchObject({ id, category: "My foods" });

    const logged = await fit("food", "add", "--food", id!, "--portion", "2 servings", "--date", date);
    expect(logged.stdout).toBe(`Logged Oat granola bar (Homemade), 2 × serving (80 g): 360 kcal, 8 g protein, 14 g fat, 52 g carbs, 6 g fiber (no meal, ${date}) from ${id}\n`);
    expect(await json("food", "add", "--food", id!, "--portion", "2", "--date", date)).toMatchObject({ grams: 20, kcal: 90, unit: "half bar" });

    expect(await json("food", "custom", "edit", id!, "--kcal", "200")).toMatchObject({ id, kcal: 200, proteinG: 4, per100g: { kcal: 500 } });
    expect(await fit("food", "custom", "edit", id!)).toMatchObject({ code: 2, stderr: expect.stringContaining("give something to change") });
    expect((await fit("food", "custom", "delete", id!)).stdout).toBe(`Deleted food ${id}\n`);
    expect(await json("food", "custom", "list")).toEqual([]);
    expect((await json("food", "list", "--date", date)).map((item: { kcal: number }) => item.kcal)).toEqual([360, 90]);
  });

  it("refuses a food without its numbers or with a serving of no weight, and stores nothing", async () => {
    const { fit, json } = await person();
    expect(await fit("food", "custom", "add", "Skyr", "--kcal", "63")).toMatchObject({ code: 2, stderr: "fit: --kcal and --protein are required\n" });
    expect(await fit("food", "custom", "add", "Skyr", "--kcal", "63", "--protein", "11", "--per", "serving"))
      .toMatchObject({ code: 2, stderr: "fit: servingG is required when the figures are per serving\n" });
    expect(await fit("food", "custom", "add", "Skyr", "--kcal", "63", "--protein", "11", "--per", "cup")).toMatchObject({ code: 2, stderr: expect.stringContaining("not 100g or serving") });
    expect(await json("food", "custom", "list")).toEqual([]);
  });
});

describe("fit recipe", () => {
  it("adds a recipe from ids and words, shows its figures per serving, logs a serving, and deletes it", async () => {
    const { fit, json } = await person();
    const bar = await json("food", "custom", "add", "Oat granola bar", "--per", "serving", "--serving", "40", "--kcal", "180", "--protein", "4");
    const added = await fit("recipe", "add", "Banana oat smoothie", "--servings", "2", "--ingredient", `${BANANA}=120g`, "--ingredient", "oat granola bar = 1 serving");
    expect(added).toMatchObject({ code: 0, stderr: "" });
    expect(added.stdout).toContain(`Picked ${bar.id} Oat granola bar for "oat granola bar"`);
    const id = /id +│ (recipe:[0-9a-f-]{36})/.exec(added.stdout)?.[1];
    expect(added.stdout).toMatch(/makes +│ 2 servings of 80 g \(160 g\)/);
    expect(added.stdout).toMatch(/per serving +│ 143\.4 kcal · 2\.6\d? g protein/);
    expect(added.stdout).toMatch(/│ Bananas, raw +│ usda:173944 +│ 120 │ 106\.8 │ 1\.31 +│/);

    const shown = await json("recipe", "show", id!);
    expect(shown).toMatchObject({ id, servings: 2, servingG: 80, perServing: { kcal: 143.4 } });
    expect((await fit("recipe", "list")).stdout).toMatch(new RegExp(`│ ${id} │ Banana oat smoothie │ 2 +│ 80 +│ 143\\.4 │`));
    const logged = await json("food", "add", "--food", id!, "--portion", "1 serving", "--meal", "breakfast", "--date", date);
    expect(logged).toMatchObject({ name: "Banana oat smoothie", kcal: 143.4, grams: 80, source: id });

    expect(await fit("food", "custom", "delete", bar.id)).toMatchObject({ code: 1, stderr: expect.stringContaining('is an ingredient of "Banana oat smoothie"') });
    expect((await fit("recipe", "delete", id!)).stdout).toBe(`Deleted recipe ${id}\n`);
    expect(await fit("recipe", "show", id!)).toMatchObject({ code: 4, stderr: `fit: no recipe ${id}\n` });
    expect((await json("food", "list", "--date", date))[0]).toMatchObject({ kcal: 143.4, source: id });
  });

  it("refuses an ingredient without a portion, one no food matches, and a recipe without servings", async () => {
    const { fit, json } = await person();
    expect(await fit("recipe", "add", "Soup", "--servings", "2", "--ingredient", "banana")).toMatchObject({ code: 2, stderr: expect.stringContaining('not an ingredient: "<food>=<portion>"') });
    expect(await fit("recipe", "add", "Soup", "--servings", "2", "--ingredient", "xqzv=100g")).toMatchObject({ code: 4, stderr: expect.stringContaining('no food matches "xqzv"') });
    expect(await fit("recipe", "add", "Soup", "--ingredient", `${BANANA}=100g`)).toMatchObject({ code: 2, stderr: expect.stringContaining("--servings") });
    expect(await json("recipe", "list")).toEqual([]);
  });
});
