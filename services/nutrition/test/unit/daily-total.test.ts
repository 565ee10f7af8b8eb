import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { adherence, hitProtein, mergeTotals, toDailyTotal } from "../../src/domain/daily-total.ts";

describe("calorie adherence", () => {
  it.each([
    [1798, "under"], // 89.9 %
    [1800, "on"], // 90 %
    [2200, "on"], // 110 %
    [2202, "over"], // 110.1 %
    [0, "under"],
  ] as const)("%d kcal of a 2000 kcal target is %s", (kcal, bucket) => {
    expect(adherence(kcal, 2000)).toBe(bucket);
  });

  it("is null without a kcal target", () => {
    expect(adherence(2000, null)).toBeNull();
  });

  it("puts every intake in exactly the bucket its percentage says", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 20_000 }), fc.integer({ min: 500, max: 10_000 }), (kcal, target) => {
        const pct = (kcal / target) * 100;
        const expected = pct < 90 - 1e-9 ? "under" : pct > 110 + 1e-9 ? "over" : "on";
        expect(adherence(kcal, target)).toBe(expected);
      }),
    );
  });
});

describe("protein target", () => {
  it("is hit at or above the target and never without one", () => {
    expect(hitProtein(150, 150)).toBe(true);
    expect(hitProtein(149.9, 150)).toBe(false);
    expect(hitProtein(500, null)).toBe(false);
  });
});

/** A day of one item typed without fat, carbs or fibre. */
const noMacros = { fatG: null, carbsG: null, fiberG: null, macrosUnknownItems: 1 };

describe("daily totals", () => {
  it("rounds sums to one decimal and carries the account's email", () => {
    const total = toDailyTotal({ ...noMacros, date: "2026-11-22", kcal: 0.1 + 0.2, proteinG: 10.04 }, null, "a@example.com");
    expect(total).toEqual({
      userEmail: "a@example.com", date: "2026-11-22", kcal: 0.3, proteinG: 10, fatG: null, carbsG: null, fiberG: null, macrosUnknownItems: 1,
      hitProtein: false, adherence: null,
    });
  });

  it("rounds the known parts of fat, carbs and fibre and says how many items they leave out", () => {
    const total = toDailyTotal({ date: "2026-11-22", kcal: 500, proteinG: 20, fatG: 0.1 + 0.2, carbsG: 60.04, fiberG: 0, macrosUnknownItems: 2 }, null, "a@example.com");
    expect(total).toMatchObject({ fatG: 0.3, carbsG: 60, fiberG: 0, macrosUnknownItems: 2 });
  });

  it("overlays fresh days on stored ones, drops emptied days and keeps the newest first", () => {
    const stored = [
      { ...noMacros, date: "2026-11-21", kcal: 100, proteinG: 1 },
      { ...noMacros, date: "2026-11-20", kcal: 200, proteinG: 2 },
      { ...noMacros, date: "2026-11-19", kcal: 300, proteinG: 3 },
    ];
    const fresh = new Map([
      ["2026-11-22", { ...noMacros, date: "2026-11-22", kcal: 50, proteinG: 5 }],
      ["2026-11-20", null],
      ["2026-11-21", { ...noMacros, date: "2026-11-21", kcal: 150, proteinG: 1 }],
    ]);
    expect(mergeTotals(stored, fresh, 2)).toEqual([
      { ...noMacros, date: "2026-11-22", kcal: 50, proteinG: 5 },
      { ...noMacros, date: "2026-11-21", kcal: 150, proteinG: 1 },
    ]);
  });
});
