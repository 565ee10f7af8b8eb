// Commands on nutrition's food items: log, correct (any subset of fields, a move to another day included),
// delete. The answer of each write is checked against the model before the model takes it in.
import fc from "fast-check";
import { expect } from "vitest";
import { DeleteItem, NAMES, noteArb, nth, who, type Who } from "./body-commands.ts";
import { verify, type Real } from "./check.ts";
import { DAYS, MEALS, freeText, type Food, type Model } from "./model.ts";

type Cmd = fc.AsyncCommand<Model, Real>;
type Fields = Omit<Food, "id" | "createdAt" | "updatedAt" | "estimate" | "source" | "grams">;
type Input = Partial<Fields>;

/** What the contract makes of a field as sent: names and units trimmed, notes as free text. */
const stored = (input: Input): Input => ({
  ...input,
  ...(input.name !== undefined && { name: input.name.trim() }),
  ...(input.unit !== undefined && { unit: input.unit === null ? null : input.unit.trim() }),
  ...(input.note !== undefined && { note: freeText(input.note) }),
});

const blank: Omit<Fields, "date" | "name" | "kcal" | "proteinG"> = {
  carbsG: null, fatG: null, fiberG: null, quantity: null, unit: null, meal: null, note: null,
};

class LogFood implements Cmd {
  constructor(readonly who: Who, readonly input: Fields) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const response = await real.apis[this.who].post("/api/nutrition/items", this.input);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const expected = {
      ...blank, ...stored(this.input), estimate: null, source: null, grams: null,
      id: expect.any(String), createdAt: expect.any(Number), updatedAt: expect.any(Number),
    };
    expect(response.body).toEqual(expected);
    model.accounts[this.who].food.set(response.body.id, response.body);
    await verify(model, real, this.who, [this.input.date]);
  }
  toString = () => `${NAMES[this.who]}.logFood(${JSON.stringify(this.input)})`;
}

/** Only the fields sent change; a new `date` moves the item, and both days' totals follow. */
class PatchFood implements Cmd {
  constructor(readonly who: Who, readonly pick: number, readonly patch: Input) {}
  check = (model: Readonly<Model>) => model.accounts[this.who].food.size > 0;
  async run(model: Model, real: Real) {
    const account = model.accounts[this.who];
    const before = nth([...account.food.values()], this.pick);
    const response = await real.apis[this.who].patch(`/api/nutrition/items/${before.id}`, this.patch);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toEqual({ ...before, ...stored(this.patch), updatedAt: expect.any(Number) });
    expect(response.body.updatedAt).toBeGreaterThanOrEqual(before.updatedAt);
    account.food.set(before.id, response.body); // same key: keeps its place in logging order
    await verify(model, real, this.who, [before.date, response.body.date]);
  }
  toString = () => `${NAMES[this.who]}.patchFood(food #${this.pick}, ${JSON.stringify(this.patch)})`;
}

// Whole kcal and half grams: sums stay exact, so a total is never a matter of rounding. 900/1100 and
// 1800/2200 sit exactly on the 90 % and 110 % edges of the 1000 and 2000 kcal targets.
const kcal = fc.oneof(
  { arbitrary: fc.constantFrom(0, 100, 450, 900, 1100, 1800, 2200), weight: 4 },
  { arbitrary: fc.integer({ min: 0, max: 3000 }), weight: 1 },
);
const proteinG = fc.oneof(fc.constantFrom(0, 25, 50, 100), fc.integer({ min: 0, max: 200 }).map((h) => h / 2));
const optionalFields = {
  carbsG: fc.constantFrom(null, 0, 30.5), fatG: fc.constantFrom(null, 12),
  quantity: fc.constantFrom(null, 1, 150), unit: fc.constantFrom(null, "g", "  piece "),
  meal: fc.constantFrom(null, ...MEALS), note: noteArb,
};
const required = { date: fc.constantFrom(...DAYS), name: fc.constantFrom("oats", "  rice  ", "chicken breast"), kcal, proteinG };

const created = fc.record({ ...required, ...optionalFields }, { requiredKeys: ["date", "name", "kcal", "proteinG"] }) as fc.Arbitrary<Fields>;
const patch = fc
  .record({ ...required, ...optionalFields }, { requiredKeys: [] })
  .filter((p) => Object.keys(p).length > 0) as fc.Arbitrary<Input>;

export const foodCommands: fc.WeightedArbitrary<Cmd>[] = [
  { weight: 6, arbitrary: fc.tuple(who, created).map(([w, input]) => new LogFood(w, input)) },
  { weight: 3, arbitrary: fc.tuple(who, fc.nat(), patch).map(([w, pick, p]) => new PatchFood(w, pick, p)) },
  { weight: 1, arbitrary: fc.tuple(who, fc.nat()).map(([w, pick]) => new DeleteItem(w, "food", pick)) },
];
