import { describe, expect, it } from "vitest";
import { chooseFood, databaseWords, type Candidate } from "../../src/domain/food-match.ts";

// Candidates as search returns them (descriptions and food groups of the USDA SR Legacy extract), in search's
// order: the rule must find the food a person means wherever search ranked it.
const foods = (rows: [number, string, string][]): Candidate[] => rows.map(([id, name, category]) => ({ id: `usda:${id}`, name, category }));
const chosen = (phrase: string, candidates: Candidate[]) => chooseFood(databaseWords(phrase), candidates)?.food.name ?? null;

const eggs = foods([
  [172184, "Egg, yolk, raw, fresh", "Dairy and Egg Products"],
  [171287, "Egg, whole, raw, fresh", "Dairy and Egg Products"],
  [172188, "Egg, whole, dried", "Dairy and Egg Products"],
  [173423, "Egg, whole, cooked, fried", "Dairy and Egg Products"],
  [172185, "Egg, whole, cooked, omelet", "Dairy and Egg Products"],
  [172187, "Egg, whole, cooked, scrambled", "Dairy and Egg Products"],
  [173424, "Egg, whole, cooked, hard-boiled", "Dairy and Egg Products"],
]);
const chicken = foods([
  [171474, "Chicken, broilers or fryers, breast, meat and skin, raw", "Poultry Products"],
  [171077, "Chicken, broiler or fryers, breast, skinless, boneless, meat only, raw", "Poultry Products"],
  [171078, "Chicken, broilers or fryers, breast, meat only, cooked, fried", "Poultry Products"],
  [171477, "Chicken, broilers or fryers, breast, meat only, cooked, roasted", "Poultry Products"],
  [171534, "Chicken, broiler or fryers, breast, skinless, boneless, meat only, cooked, grilled", "Poultry Products"],
  [174608, "Chicken breast, roll, oven-roasted", "Sausages and Luncheon Meats"],
]);
const carrots = foods([
  [170393, "Carrots, raw", "Vegetables and Vegetable Products"],
  [170500, "Carrot, dehydrated", "Vegetables and Vegetable Products"],
  [170394, "Carrots, cooked, boiled, drained, without salt", "Vegetables and Vegetable Products"],
  [170425, "Peas and carrots, frozen, unprepared", "Vegetables and Vegetable Products"],
]);
const rice = foods([
  [168877, "Rice, white, long-grain, regular, raw, enriched", "Cereal Grains and Pasta"],
  [169712, "Rice, white, steamed, Chinese restaurant", "Cereal Grains and Pasta"],
  [168878, "Rice, white, long-grain, regular, enriched, cooked", "Cereal Grains and Pasta"],
]);
const potatoes = foods([
  [170026, "Potatoes, flesh and skin, raw", "Vegetables and Vegetable Products"],
  [170093, "Potatoes, baked, flesh and skin, without salt", "Vegetables and Vegetable Products"],
]);
const bananas = foods([
  [169394, "Pepper, banana, raw", "Vegetables and Vegetable Products"],
  [173945, "Bananas, dehydrated, or banana powder", "Fruits and Fruit Juices"],
  [175230, "SILK Banana-Strawberry soy yogurt", "Legumes and Legume Products"],
  [173944, "Bananas, raw", "Fruits and Fruit Juices"],
]);
const macaroni = foods([
  [169769, "Macaroni and cheese, box mix with cheese sauce, unprepared", "Meals, Entrees, and Side Dishes"],
  [172259, "Babyfood, macaroni and cheese, toddler", "Baby Foods"],
  [169770, "Macaroni and cheese, box mix with cheese sauce, prepared", "Meals, Entrees, and Side Dishes"],
]);
const peppers = foods([[170108, "Peppers, sweet, red, cooked, boiled, drained, with salt", "Vegetables and Vegetable Products"]]);
const salmon = foods([
  [173721, "Salmon nuggets, breaded, frozen, heated", "Finfish and Shellfish Products"],
  [175167, "Fish, salmon, Atlantic, farmed, raw", "Finfish and Shellfish Products"],
  [173692, "Fish, salmon, sockeye, cooked, dry heat", "Finfish and Shellfish Products"],
]);

describe("cooked unless said raw", () => {
  it("takes meat, fish, eggs, grains and potatoes in their plainest cooked form", () => {
    expect(chosen("eggs", eggs)).toBe("Egg, whole, cooked, hard-boiled");
    expect(chosen("chicken breast", chicken)).toBe("Chicken, broilers or fryers, breast, meat only, cooked, roasted");
    expect(chosen("rice", rice)).toBe("Rice, white, long-grain, regular, enriched, cooked");
    expect(chosen("potato", potatoes)).toBe("Potatoes, baked, flesh and skin, without salt");
    expect(chosen("salmon", salmon)).toBe("Fish, salmon, sockeye, cooked, dry heat");
  });

  it("takes them raw, or cooked as said, when the words say so", () => {
    expect(chosen("raw egg", eggs)).toBe("Egg, whole, raw, fresh");
    expect(chosen("raw chicken breast", chicken)).toBe("Chicken, broilers or fryers, breast, meat and skin, raw");
    expect(chosen("fried egg", eggs)).toBe("Egg, whole, cooked, fried");
    expect(chosen("grilled chicken breast", chicken)).toBe("Chicken, broiler or fryers, breast, skinless, boneless, meat only, cooked, grilled");
  });

  it("takes produce usually eaten raw raw, unless the words say cooked", () => {
    expect(chosen("carrot", carrots)).toBe("Carrots, raw");
    expect(chosen("a raw carrot", carrots)).toBe("Carrots, raw");
    expect(chosen("boiled carrots", carrots)).toBe("Carrots, cooked, boiled, drained, without salt");
    expect(chosen("banana", bananas)).toBe("Bananas, raw");
  });
});

describe("the plainest food", () => {
  it("comes before branded, odd (dried, a mix as sold) and sidelined foods, and one named by another food", () => {
    expect(chosen("banana", bananas.filter((f) => f.name.startsWith("Bananas, dehydrated") || f.name.startsWith("SILK")))).toBe("Bananas, dehydrated, or banana powder");
    expect(chosen("banana", bananas.filter((f) => f.name !== "Pepper, banana, raw").reverse()), "search's order aside").toBe("Bananas, raw");
    expect(chosen("mac and cheese", macaroni)).toBe("Macaroni and cheese, box mix with cheese sauce, prepared");
  });

  it("is none when a word said is not among the words naming a food", () => {
    expect(chosen("salt and pepper", peppers), "\"with salt\" adds salt to the peppers, it does not name it").toBeNull();
    expect(chosen("moon rock", eggs)).toBeNull();
    expect(chooseFood(["egg"], [])).toBeNull();
  });

  it("says whether every word is in the food's own name, before its first comma", () => {
    expect(chooseFood(databaseWords("mac and cheese"), macaroni)?.inHead).toBe(true);
    expect(chooseFood(databaseWords("chicken breast"), chicken)?.inHead).toBe(false);
  });
});

describe("everyday names", () => {
  it("become the database's words, a whole phrase only where a word alone would mislead", () => {
    expect(databaseWords("Mac & Cheese")).toEqual(["macaroni", "cheese"]);
    expect(databaseWords("toast")).toEqual(["bread", "white", "toasted"]);
    expect(databaseWords("french toast")).toEqual(["french", "toast"]);
    expect(databaseWords("salad")).toEqual(["lettuce", "green", "leaf"]);
    expect(databaseWords("potato salad")).toEqual(["potato", "salad"]);
  });
});
