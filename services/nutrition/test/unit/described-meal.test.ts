import { describe, expect, it } from "vitest";
import { describeLogged } from "../../src/domain/described-meal.ts";

const item = (name: string, quantity: number | null, unit: string | null) =>
  ({ name, quantity, unit, kcal: 156, proteinG: 12.6, estimate: { kcal: { low: 133, high: 179 } } });

describe("the reply to a described meal", () => {
  it("lists each item with its amount, naming a portion called like the food once", () => {
    expect(describeLogged([item("egg", 2, "egg"), item("whole wheat bread", 1, "slice"), item("apple", null, null)], [])).toBe(
      [
        "Logged 3 items, about 468 kcal in all (estimates):",
        "- 2 egg: about 156 kcal (likely 133–179), 12.6 g protein",
        "- 1 slice whole wheat bread: about 156 kcal (likely 133–179), 12.6 g protein",
        "- apple: about 156 kcal (likely 133–179), 12.6 g protein",
      ].join("\n"),
    );
  });
});
