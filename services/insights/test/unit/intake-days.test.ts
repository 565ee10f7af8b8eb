import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { storeOnMemoryDatabase } from "@fit/testing";
import { insightsDatabase } from "../../src/app.ts";
import { createStore, type IntakeTotals } from "../../src/store/store.ts";

const memory = storeOnMemoryDatabase(insightsDatabase, createStore);

const logged = (date: string, kcal: number): IntakeTotals => ({ date, kcal, proteinG: 100, itemCount: 1, counted: true });
const shown = (date: string, kcal: number) => ({ date, kcal, proteinG: 100, counted: true });
/** Nutrition's clock as PostgreSQL writes it, `seconds` after a fixed moment. */
const at = (seconds: number) => `2026-11-01 10:00:${seconds.toFixed(6).padStart(9, "0")}+00`;

describe("insights' food days (docs/decisions/0069-insights-service-read-model.md)", () => {
  it("keep the newest of two answers about a day, whichever is written last, and a day gone stays gone", async () => {
    const accountId = randomUUID();
    const replace = (from: string, to: string, days: IntakeTotals[], asOf: string) => memory.store.replaceIntakeDays(accountId, from, to, days, asOf);
    const days = () => memory.store.intakeSince(accountId, "2026-10-01");

    // Two refreshes of one day: the one asked later (a second item) is written first.
    await replace("2026-10-05", "2026-10-05", [logged("2026-10-05", 900)], at(2.000002));
    await replace("2026-10-05", "2026-10-05", [logged("2026-10-05", 400)], at(2.000001));
    expect(await days()).toEqual([shown("2026-10-05", 900)]);

    // Both items deleted; an older answer that still had the day comes after, and does not bring it back.
    await replace("2026-10-05", "2026-10-05", [], at(3));
    await replace("2026-10-05", "2026-10-05", [logged("2026-10-05", 900)], at(2.5));
    // The same for a day the read model never held.
    await replace("2026-10-06", "2026-10-06", [], at(3));
    await replace("2026-10-06", "2026-10-06", [logged("2026-10-06", 300)], at(1));
    expect(await days()).toEqual([]);

    // A repair over a window: every day as it answers; then an older window's answer changes nothing.
    await replace("2026-10-01", "2026-10-31", [logged("2026-10-05", 1200), logged("2026-10-07", 500)], at(9));
    await replace("2026-10-01", "2026-10-31", [logged("2026-10-06", 100)], at(8));
    expect(await days()).toEqual([shown("2026-10-05", 1200), shown("2026-10-07", 500)]);

    // A newer answer without a day takes it away.
    await replace("2026-10-01", "2026-10-31", [logged("2026-10-07", 500)], at(10));
    expect(await days()).toEqual([shown("2026-10-07", 500)]);
  });
});
