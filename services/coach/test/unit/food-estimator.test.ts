import { describe, expect, it } from "vitest";
import { estimateFoods, type FoodEstimate, type Range } from "../../src/domain/food-estimator.ts";
import { type FoodEntry, foodTable } from "../../src/domain/food-table.ts";

const exact: Range = { low: 0.95, high: 1.05 };
const counted: Range = { low: 0.85, high: 1.15 };
const vague: Range = { low: 0.6, high: 1.5 };

const entry = (id: string): FoodEntry => foodTable.find((e) => e.id === id) ?? expect.unreachable(`no table entry ${id}`);

/** The numbers an estimate of `grams` of entry `id` must carry, worked out from the table row itself. */
const expected = (id: string, grams: number, spread: Range) => {
  const { kcalPer100g, proteinPer100g } = entry(id);
  const kcal = (g: number) => Math.round((g * kcalPer100g) / 100);
  const protein = (g: number) => Math.round(((g * proteinPer100g) / 100) * 10) / 10;
  return {
    grams: Math.round(grams * 10) / 10,
    kcal: kcal(grams),
    kcalRange: { low: kcal(grams * spread.low), high: kcal(grams * spread.high) },
    proteinG: protein(grams),
    proteinRange: { low: protein(grams * spread.low), high: protein(grams * spread.high) },
    source: `table:${id}`,
  };
};

/** The single item a text describes, asserting nothing was left unrecognized. */
const only = (text: string): FoodEstimate => {
  const { items, unrecognized } = estimateFoods(text);
  expect(unrecognized).toEqual([]);
  expect(items).toHaveLength(1);
  return items[0] as FoodEstimate;
};

const portion = (id: string) => entry(id).portion.grams;
const density = (id: string) => entry(id).mlDensity ?? 1;

describe("table lookups", () => {
  it.each([
    ["an apple", "apple", 1],
    ["a banana", "banana", 1],
    ["a bagel", "bagel", 1],
    ["a big mac", "big-mac", 1],
    ["a can of tuna", "tuna-canned", 1],
    ["a glass of wine", "wine", 1],
  ] as const)("%s is one portion of %s", (text, id, count) => {
    const item = only(text);
    expect(item).toMatchObject({ name: entry(id).name, quantity: count, unit: entry(id).portion.label, ...expected(id, count * portion(id), counted) });
  });

  it("names the food by the entry's display name and its id as provenance", () => {
    expect(only("2 boiled eggs")).toMatchObject({ name: "egg", unit: "egg", source: "table:egg-whole-cooked" });
  });

  it("matches case- and accent-insensitively and tolerates plurals", () => {
    expect(only("CAFÉ LATTE").source).toBe("table:latte");
    expect(only("3 Strawberries").source).toBe("table:strawberries");
    expect(only("2 peaches").source).toBe("table:peach");
    expect(only("two glasses of water")).toMatchObject({ quantity: 2, unit: "glass", source: "table:water" });
  });

  it("recognises every alias of every entry on its own, as one vague portion of that entry", () => {
    for (const food of foodTable) {
      for (const alias of food.aliases) {
        const item = only(alias);
        expect(item, alias).toMatchObject({ quantity: 1, unit: food.portion.label, ...expected(food.id, food.portion.grams, vague) });
      }
    }
  });
});

describe("quantities", () => {
  it.each([
    ["3 eggs", 3],
    ["two eggs", 2],
    ["twelve eggs", 12],
    ["a dozen eggs", 12],
    ["half a dozen eggs", 6],
    ["two dozen eggs", 24],
    ["a couple of eggs", 2],
    ["1/2 egg", 0.5],
    ["1 1/2 eggs", 1.5],
    ["1½ eggs", 1.5],
    ["2.5 eggs", 2.5],
    ["two and a half eggs", 2.5],
    ["eggs x 3", 3],
  ] as const)("%s is %d eggs", (text, count) => {
    expect(only(text)).toMatchObject({ quantity: count, unit: "egg", ...expected("egg-whole-cooked", count * portion("egg-whole-cooked"), counted) });
  });

  it("reads half and a/an as counts, and a few as three but vaguely", () => {
    expect(only("half an avocado")).toMatchObject({ quantity: 0.5, ...expected("avocado", 0.5 * portion("avocado"), counted) });
    expect(only("an orange")).toMatchObject({ quantity: 1, ...expected("orange", portion("orange"), counted) });
    expect(only("a few strawberries")).toMatchObject({ quantity: 3, ...expected("strawberries", 3 * portion("strawberries"), vague) });
  });

  it("refuses a zero count and reports it, rather than logging one portion", () => {
    for (const text of ["0 eggs", "0 g rice", "0.001 eggs"]) {
      expect(estimateFoods(text), text).toEqual({ items: [], unrecognized: [text] });
    }
  });

  it("ignores a fat percentage and prefers a weight to a count", () => {
    expect(only("2% milk")).toMatchObject({ quantity: 1, unit: "cup" });
    expect(only("a 300 g steak")).toMatchObject({ quantity: 300, unit: "g", ...expected("beef-steak", 300, exact) });
  });
});

describe("units", () => {
  it.each([
    ["150 g white rice", "rice-white", 150],
    ["200g chicken breast", "chicken-breast", 200],
    ["chicken breast 200 grams", "chicken-breast", 200],
    ["1.5 kg potatoes", "potato-boiled", 1500],
    ["4 oz steak", "beef-steak", 4 * 28.3495],
    ["1 lb ground beef", "beef-ground", 453.592],
  ] as const)("%s weighs exactly what it says", (text, id, grams) => {
    expect(only(text)).toMatchObject({ unit: "g", quantity: Math.round(grams * 100) / 100, ...expected(id, grams, exact) });
  });

  it.each([
    ["250 ml milk", "milk-whole", 250],
    ["2 cups of milk", "milk-whole", 2 * 240],
    ["1 cup of rice", "rice-white", 240],
    ["2 tbsp olive oil", "olive-oil", 2 * 15],
    ["1 tsp sugar", "sugar", 5],
    ["half a cup of oats", "oats-dry", 0.5 * 240],
  ] as const)("%s is measured by volume through the food's density", (text, id, ml) => {
    expect(only(text)).toMatchObject({ unit: "ml", quantity: ml, ...expected(id, ml * density(id), exact) });
  });

  it("counts slices of the food's portion", () => {
    expect(only("2 slices of whole wheat bread")).toMatchObject({ quantity: 2, unit: "slice", ...expected("bread-whole-wheat", 2 * portion("bread-whole-wheat"), counted) });
    expect(only("3 slices of pizza")).toMatchObject({ quantity: 3, unit: "slice", ...expected("pizza-cheese", 3 * portion("pizza-cheese"), counted) });
  });

  it("counts a pizza, cake or pie named whole, sized, halved or in numbers as wholes of eight slices", () => {
    const whole = (text: string, id: string, count: number, unit: string, slices: number) =>
      expect(only(text), text).toMatchObject({ quantity: count, unit, ...expected(id, count * slices * portion(id), counted) });
    whole("a large pepperoni pizza", "pizza-pepperoni", 1, "whole", 8);
    whole("a whole pizza", "pizza-cheese", 1, "whole", 8);
    whole("half a pizza", "pizza-cheese", 0.5, "whole", 8);
    whole("2 pizzas", "pizza-cheese", 2, "whole", 8);
    whole("large pizza", "pizza-cheese", 1, "whole", 8);
    whole("a medium margherita pizza", "pizza-cheese", 1, "medium", 6);
    whole("two small pizzas", "pizza-cheese", 2, "small", 4);
    whole("a whole cake", "cake", 1, "whole", 8);
    whole("a cheesecake", "cheesecake", 1, "whole", 8);
    whole("an apple pie", "pie-fruit", 1, "whole", 8);
  });

  it("keeps slices, pieces named as such and vague amounts of a whole in slices", () => {
    const slices = (text: string, id: string, count: number, spread: Range) =>
      expect(only(text), text).toMatchObject({ quantity: count, unit: "slice", ...expected(id, count * portion(id), spread) });
    slices("a slice of pizza", "pizza-cheese", 1, counted);
    slices("2 large slices of pepperoni pizza", "pizza-pepperoni", 2, counted);
    slices("a pizza slice", "pizza-cheese", 1, counted);
    slices("a piece of cake", "cake", 1, counted);
    slices("a cupcake", "cake", 1, counted);
    slices("some pizza", "pizza-cheese", 1, vague);
    slices("pizza", "pizza-cheese", 1, vague);
  });

  it("gives household measures fixed sizes, by volume where that is fairer", () => {
    expect(only("a glass of orange juice")).toMatchObject({ unit: "glass", ...expected("orange-juice", 250 * density("orange-juice"), counted) });
    expect(only("a handful of almonds")).toMatchObject({ unit: "handful", ...expected("almonds", 30, vague) });
    expect(only("a bowl of cornflakes").grams).toBeLessThan(only("a bowl of tomato soup").grams / 5);
  });
});

describe("ranges", () => {
  const relativeWidth = (item: FoodEstimate) => (item.kcalRange.high - item.kcalRange.low) / item.kcal;

  it("are narrowest for a weight, wider for a count and widest for a guess", () => {
    const weighed = only("150 g chicken breast");
    const countedItem = only("1 chicken breast");
    const guessed = only("chicken breast");
    expect(relativeWidth(weighed)).toBeLessThan(relativeWidth(countedItem));
    expect(relativeWidth(countedItem)).toBeLessThan(relativeWidth(guessed));
    expect(guessed).toMatchObject(expected("chicken-breast", portion("chicken-breast"), vague));
  });

  it("treat vague words and vague measures as guesses", () => {
    expect(only("some rice")).toMatchObject(expected("rice-white", portion("rice-white"), vague));
    expect(only("a bit of cheese")).toMatchObject(expected("cheese-cheddar", portion("cheese-cheddar"), vague));
    expect(only("a bowl of rice")).toMatchObject({ unit: "bowl", ...expected("rice-white", 350 * density("rice-white"), vague) });
  });

  it("always hold the point, for kcal and protein alike", () => {
    const texts = ["3 eggs", "a bowl of pasta", "1 cup milk", "7 almonds", "0.3 oz butter", "a splash of milk", "1/3 cup honey", "some fries"];
    for (const item of texts.flatMap((text) => estimateFoods(text).items)) {
      for (const [range, point] of [[item.kcalRange, item.kcal], [item.proteinRange, item.proteinG]] as const) {
        expect([range.low <= point, point <= range.high]).toEqual([true, true]);
      }
      expect([item.kcal, item.kcalRange.low, item.kcalRange.high].every(Number.isInteger)).toBe(true);
      expect(item.proteinG * 10).toBeCloseTo(Math.round(item.proteinG * 10), 9);
    }
  });

  it("are refused and reported, not scaled down, for amounts past what one item may hold", () => {
    for (const text of ["1000 eggs", "200000 eggs", "10000 kg butter", "500 kg whey", "200 l water", "5 whole pizzas"]) {
      expect(estimateFoods(text), text).toEqual({ items: [], unrecognized: [text] });
    }
    const [butter] = estimateFoods("1 kg butter").items;
    expect(butter?.kcalRange.high).toBeLessThanOrEqual(10_000);
    expect(only("100 eggs")).toMatchObject({ quantity: 100, ...expected("egg-whole-cooked", 100 * portion("egg-whole-cooked"), counted) });
  });
});

describe("splitting text into foods", () => {
  it("reads two eggs and toast as two foods", () => {
    const { items, unrecognized } = estimateFoods("two eggs and toast");
    expect(unrecognized).toEqual([]);
    expect(items).toEqual([
      { name: "egg", quantity: 2, unit: "egg", ...expected("egg-whole-cooked", 2 * portion("egg-whole-cooked"), counted) },
      { name: "toast", quantity: 1, unit: "slice", ...expected("toast-white", portion("toast-white"), vague) },
    ]);
  });

  it("reads a meal with weights and a drink", () => {
    const { items } = estimateFoods("chicken breast 200g, rice 150 g and a glass of orange juice");
    expect(items).toEqual([
      { name: "chicken breast", quantity: 200, unit: "g", ...expected("chicken-breast", 200, exact) },
      { name: "white rice", quantity: 150, unit: "g", ...expected("rice-white", 150, exact) },
      { name: "orange juice", quantity: 1, unit: "glass", ...expected("orange-juice", 250 * density("orange-juice"), counted) },
    ]);
  });

  it("splits on every separator", () => {
    const { items } = estimateFoods("eggs; toast + butter & jam\nmilk plus honey with tea");
    expect(items.map((i) => i.source)).toEqual(["egg-whole-cooked", "toast-white", "butter", "jam", "milk-whole", "honey", "tea"].map((id) => `table:${id}`));
  });

  it("splits at \"on\" too, so each food keeps its own amount", () => {
    const { items, unrecognized } = estimateFoods("2 tbsp peanut butter on a slice of whole wheat bread");
    expect(unrecognized).toEqual([]);
    expect(items).toEqual([
      { name: "peanut butter", quantity: 30, unit: "ml", ...expected("peanut-butter", 30 * density("peanut-butter"), exact) },
      { name: "whole wheat bread", quantity: 1, unit: "slice", ...expected("bread-whole-wheat", portion("bread-whole-wheat"), counted) },
    ]);
    expect(estimateFoods("two eggs on toast, a moon rock on top").unrecognized).toEqual(["a moon rock", "top"]);
  });

  it("keeps foods named with a separator word whole", () => {
    expect(only("mac and cheese").source).toBe("table:mac-and-cheese");
    expect(only("a coffee with milk").source).toBe("table:coffee-with-milk");
    expect([only("Mac & Cheese").source, only("pb&j").source]).toEqual(["table:mac-and-cheese", "table:pbj-sandwich"]);
    expect(estimateFoods("fish and chips and a beer").items.map((i) => i.source)).toEqual(["table:fish-and-chips", "table:beer"]);
    expect([only("beans on toast").source, only("corn on the cob").source]).toEqual(["table:beans-baked", "table:corn"]);
  });
});

describe("unrecognized parts", () => {
  it("come back trimmed, in order, beside the foods found", () => {
    expect(estimateFoods("two eggs,  a moon rock , toast").unrecognized).toEqual(["a moon rock"]);
    expect(estimateFoods("a moon rock and stardust")).toEqual({ items: [], unrecognized: ["a moon rock", "stardust"] });
  });

  it("are all listed, however many there are", () => {
    const rocks = Array.from({ length: 25 }, (_, i) => `moon rock ${i + 1}`);
    expect(estimateFoods(rocks.join(", "))).toEqual({ items: [], unrecognized: rocks });
  });

  it("drop empty parts", () => {
    expect(estimateFoods(" eggs,, ,toast, ;\n")).toMatchObject({ unrecognized: [] });
    expect(estimateFoods("")).toEqual({ items: [], unrecognized: [] });
  });
});

describe("longest alias wins", () => {
  it.each([
    ["2 tbsp peanut butter", "peanut-butter"],
    ["a sweet potato", "sweet-potato"],
    ["2 egg whites", "egg-white"],
    ["chocolate milk", "milk-chocolate-drink"],
    ["a chocolate muffin", "muffin"],
    ["peanut butter and jelly sandwich", "pbj-sandwich"],
  ] as const)("%s is %s", (text, id) => {
    expect(only(text).source).toBe(`table:${id}`);
  });
});

describe("another protein", () => {
  it("is not logged as the one a dish's table name says", () => {
    for (const text of ["tofu stir fry", "a beef stir fry", "2 shrimp stir fries", "lamb curry", "turkey sausage"]) {
      expect(estimateFoods(text), text).toEqual({ items: [], unrecognized: [text] });
    }
  });

  it("still leaves a dish named with its own protein, or plainly, to its entry", () => {
    expect(["chicken stir fry", "a stir fry", "2 chicken curries", "curry", "lamb"].map((text) => only(text).source)).toEqual(
      ["stir-fry", "stir-fry", "curry", "curry", "lamb"].map((id) => `table:${id}`),
    );
    // A cheese in a dish's name is a topping: a meat on top is still that dish.
    expect(only("a slice of ham pizza").source).toBe("table:pizza-cheese");
  });
});

describe("limits", () => {
  it("gives the same result for the same text, always", () => {
    const text = "2 eggs, a slice of toast with butter, some grapes and a latte";
    const first = estimateFoods(text);
    estimateFoods("a bowl of cereal and 3 oz salmon");
    expect(estimateFoods(text)).toEqual(first);
  });

  it("stops at the reply's 20 items and reports the parts past them", () => {
    const { items, unrecognized } = estimateFoods(Array.from({ length: 24 }, (_, i) => `${i + 1} eggs`).join(", "));
    expect(items).toHaveLength(20);
    expect(items.at(-1)?.quantity).toBe(20);
    expect(unrecognized).toEqual(["21 eggs", "22 eggs", "23 eggs", "24 eggs"]);
  });

  it("reads only the first 4000 characters", () => {
    expect(estimateFoods(`${"x".repeat(4000)}, banana`).items).toEqual([]);
    expect(estimateFoods(`${"x".repeat(3995)}, banana`).items).toEqual([]);
    expect(estimateFoods(`${"x".repeat(3980)}, banana`).items).toHaveLength(1);
  });

  // Guards against catastrophic backtracking (seconds or more), with room for a busy machine.
  it("is fast on normal text and on the worst text allowed", () => {
    const normal = "Breakfast: two scrambled eggs with 2 slices of whole wheat toast and butter, a latte; lunch chicken breast 200g";
    estimateFoods(normal);
    const started = performance.now();
    for (let i = 0; i < 100; i++) estimateFoods(normal);
    const worstStarted = performance.now();
    estimateFoods("chicken breast ".repeat(300));
    expect((worstStarted - started) / 100).toBeLessThan(50);
    expect(performance.now() - worstStarted).toBeLessThan(1_000);
  });
});

describe("table integrity", () => {
  it("holds a few hundred entries with unique kebab-case ids", () => {
    expect(foodTable.length).toBeGreaterThanOrEqual(250);
    expect(foodTable.length).toBeLessThanOrEqual(320);
    const ids = foodTable.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
  });

  it("gives every alias to one entry only, in lower case", () => {
    const owners = new Map<string, string>();
    for (const food of foodTable) {
      expect(food.aliases.length).toBeGreaterThan(0);
      for (const alias of food.aliases) {
        expect(alias).toBe(alias.toLowerCase());
        expect(alias).toMatch(/^[a-z][a-z' -]*$/);
        const key = alias.replace(/'/g, "").replace(/-/g, " ");
        const owner = owners.get(key);
        if (owner !== undefined && owner !== food.id) throw new Error(`"${alias}" belongs to both ${owner} and ${food.id}`);
        owners.set(key, food.id);
      }
    }
  });

  it("has plausible numbers, portions and densities", () => {
    for (const food of foodTable) {
      expect(food.kcalPer100g >= 0 && food.kcalPer100g <= 900, food.id).toBe(true);
      expect(food.proteinPer100g >= 0 && food.proteinPer100g <= 100, food.id).toBe(true);
      if (food.kcalPer100g > 0) expect(food.proteinPer100g * 4, food.id).toBeLessThanOrEqual(food.kcalPer100g * 1.05);
      expect(food.portion.grams > 0 && food.portion.grams <= 1000, food.id).toBe(true);
      expect(food.portion.label.length, food.id).toBeGreaterThan(0);
      expect(food.mlDensity ?? 1, food.id).toBeGreaterThan(0);
      expect(food.mlDensity ?? 1, food.id).toBeLessThanOrEqual(1.5);
    }
  });
});
