// A plain in-memory model of one account, and what every read must answer given it. The rules are written
// from the README ("Decisions where the interface is silent") and the contracts' descriptions, never imported
// from a service's domain code: a shared rule would agree with itself however wrong it was.

export const DAY_MS = 86_400_000;
/** Five consecutive days, so items, readings and moves collide on the same days. */
export const DAYS = ["2026-03-01", "2026-03-02", "2026-03-03", "2026-03-04", "2026-03-05"] as const;
export const dayStart = (day: string) => Date.parse(`${day}T00:00:00.000Z`);

/** The documented trend: per UTC day with readings, the mean weight (unrounded here) at the day's newest reading. */
const dailyTrend = (ascending: readonly { ts: number; weightKg: number }[]) => {
  const byDay = new Map<string, { ts: number; kgs: number[] }>();
  for (const r of ascending) {
    const day = new Date(r.ts).toISOString().slice(0, 10);
    byDay.set(day, { ts: r.ts, kgs: [...(byDay.get(day)?.kgs ?? []), r.weightKg] });
  }
  return [...byDay.values()].map(({ ts, kgs }) => ({ ts, kg: kgs.reduce((sum, kg) => sum + kg, 0) / kgs.length }));
};

export const SITES = ["waist", "shoulders", "chest"] as const;
export const MEALS = ["breakfast", "lunch", "dinner", "snack"] as const;

export interface Reading { id: string; ts: number; weightKg: number; bodyFatPct: number | null; note: string | null }
export interface Measure { id: string; site: string; valueCm: number; ts: number }
export interface TargetValues {
  goalWeightKg: number | null; startWeightKg: number | null; targetDate: number | null; startDate: number | null;
  dailyKcalTarget: number | null; proteinTargetG: number | null;
}
export interface Food {
  id: string; date: string; name: string; kcal: number; proteinG: number; carbsG: number | null; fatG: number | null;
  fiberG: number | null; quantity: number | null; unit: string | null; meal: string | null; note: string | null;
  /** Items typed in have no estimate (only /api/nutrition/describe sets one), nor a food and its grams as their source. */
  estimate: null; source: null; grams: null; createdAt: number; updatedAt: number;
}

/** Free text (notes): trimmed, cut at 500 characters, empty stored as null (contracts' truncatedText). */
export const freeText = (value: string | null | undefined) => {
  if (value == null) return null;
  const cut = value.trim().slice(0, 500);
  return cut === "" ? null : cut;
};

export class AccountModel {
  readonly weights = new Map<string, Reading>();
  readonly measurements = new Map<string, Measure>();
  /** The targets as PUT answered them (with the server's id); null until the first PUT. */
  targets: (TargetValues & { id: number }) | null = null;
  /** Insertion order is logging order: "oldest first, as they were logged", also after a move to another day. */
  readonly food = new Map<string, Food>();
  /** Ids this account deleted: a second delete or edit must answer 404. */
  readonly gone: { kind: "weight" | "measurement" | "food"; id: string }[] = [];

  constructor(readonly email: string) {}

  weightsNewestFirst() {
    return [...this.weights.values()].sort((a, b) => b.ts - a.ts);
  }

  measurementsNewestFirst() {
    return [...this.measurements.values()].sort((a, b) => b.ts - a.ts);
  }

  itemsOn(day: string) {
    return [...this.food.values()].filter((f) => f.date === day);
  }

  /** One total per day that has items, newest day first; a day whose items were all deleted disappears. */
  dailyTotals() {
    const days = [...new Set([...this.food.values()].map((f) => f.date))].sort().reverse();
    return days.map((day) => this.dayTotal(day)!);
  }

  /**
   * The day's sums and, from the current targets: hitProtein = proteinG >= target (false without one);
   * adherence = under below 90 % of the kcal target, on from 90 % to 110 % inclusive, over above (null without).
   * Amounts are whole kcal and half grams, so sums are exact and the percentages need no rounding.
   */
  dayTotal(day: string) {
    const items = this.itemsOn(day);
    if (items.length === 0) return null;
    const kcal = items.reduce((sum, f) => sum + f.kcal, 0);
    const proteinG = items.reduce((sum, f) => sum + f.proteinG, 0);
    const kcalTarget = this.targets?.dailyKcalTarget ?? null;
    const proteinTarget = this.targets?.proteinTargetG ?? null;
    const adherence = kcalTarget === null ? null : kcal * 100 < kcalTarget * 90 ? "under" : kcal * 100 > kcalTarget * 110 ? "over" : "on";
    // Each macro sums the items that give it, null when none does (docs/decisions/0067-day-macros-sum-what-is-known.md).
    const known = (field: "fatG" | "carbsG" | "fiberG") => {
      const values = items.map((f) => f[field]).filter((value): value is number => value !== null);
      return values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0);
    };
    const macros = {
      fatG: known("fatG"), carbsG: known("carbsG"), fiberG: known("fiberG"),
      macrosUnknownItems: items.filter((f) => f.fatG === null || f.carbsG === null || f.fiberG === null).length,
    };
    return { userEmail: this.email, date: day, kcal, proteinG, ...macros, hitProtein: proteinTarget !== null && proteinG >= proteinTarget, adherence };
  }

  /**
   * Up to the end of `day`: latest values from the newest reading, the mean of the readings in the 7 days ending
   * at it (unrounded; compared to two decimals), the readings of the 90 days up to the day, oldest first.
   */
  weightSummary(day: string) {
    const dayEnd = dayStart(day) + DAY_MS;
    const upTo = [...this.weights.values()].filter((r) => r.ts < dayEnd).sort((a, b) => a.ts - b.ts);
    const newest = upTo.at(-1);
    if (!newest) return null;
    const week = upTo.filter((r) => r.ts > newest.ts - 7 * DAY_MS && r.ts <= newest.ts);
    return {
      latestKg: newest.weightKg,
      weeklyAvgKg: week.reduce((sum, r) => sum + r.weightKg, 0) / week.length,
      bodyFatPct: newest.bodyFatPct,
      note: newest.note,
      trend: dailyTrend(upTo.filter((r) => r.ts >= dayEnd - 90 * DAY_MS)),
    };
  }

  /** Each measured site's newest value (timestamps are unique, so "newest" is never a tie). */
  latestMeasurements() {
    const latest = new Map<string, Measure>();
    for (const m of this.measurementsNewestFirst()) if (!latest.has(m.site)) latest.set(m.site, m);
    return [...latest.values()].map(({ site, valueCm, ts }) => ({ site, valueCm, ts }));
  }

  /** Latest shoulders ÷ latest waist (unrounded; compared to three decimals); null unless both are measured. */
  shoulderToWaist() {
    const latest = this.latestMeasurements();
    const shoulders = latest.find((m) => m.site === "shoulders");
    const waist = latest.find((m) => m.site === "waist");
    return shoulders && waist ? shoulders.valueCm / waist.valueCm : null;
  }
}

/** Both accounts, and a clock that makes every timestamp the model hands out unique. */
export class Model {
  #tick = 0;

  constructor(readonly accounts: readonly [AccountModel, AccountModel]) {}

  /** A moment on `day` at `hour`, plus a counter of milliseconds: "newest first" is never decided by a tie. */
  instant(day: string, hour: number) {
    this.#tick += 1;
    return dayStart(day) + hour * 3_600_000 + this.#tick;
  }
}
