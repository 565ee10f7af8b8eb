import type { DailyTotal } from "@fit/contracts";

export interface NutritionTargets {
  dailyKcalTarget: number | null;
  proteinTargetG: number | null;
}

export interface DayTotal {
  date: string;
  kcal: number;
  proteinG: number;
  /** Sums over the items that give them; null when none does. */
  fatG: number | null;
  carbsG: number | null;
  fiberG: number | null;
  /** Items without fat, carbs or fibre: what the three sums leave out. */
  macrosUnknownItems: number;
}

/**
 * `under` below 90 % of the kcal target, `on` from 90 % to 110 % inclusive, `over` above; null
 * without a target. Compared in whole-number ratios so 1800 of 2000 is exactly 90 %, not 89.999…
 */
export const adherence = (kcal: number, target: number | null): DailyTotal["adherence"] => {
  if (target === null || target <= 0) return null;
  if (kcal * 100 < target * 90) return "under";
  if (kcal * 100 > target * 110) return "over";
  return "on";
};

export const hitProtein = (proteinG: number, target: number | null): boolean => target !== null && proteinG >= target;

/** Sums of floating values drift (0.1 + 0.2); totals are shown to one decimal. */
const tenth = (value: number) => Math.round(value * 10) / 10;
const knownTenth = (value: number | null) => (value === null ? null : tenth(value));

export const toDailyTotal = (day: DayTotal, targets: NutritionTargets | null, userEmail: string): DailyTotal => {
  const kcal = tenth(day.kcal);
  const proteinG = tenth(day.proteinG);
  return {
    userEmail,
    date: day.date,
    kcal,
    proteinG,
    fatG: knownTenth(day.fatG),
    carbsG: knownTenth(day.carbsG),
    fiberG: knownTenth(day.fiberG),
    macrosUnknownItems: day.macrosUnknownItems,
    hitProtein: hitProtein(proteinG, targets?.proteinTargetG ?? null),
    adherence: adherence(kcal, targets?.dailyKcalTarget ?? null),
  };
};

export const MAX_DAILY_TOTALS = 60;

/** Stored totals overlaid with freshly computed pending days; empty days dropped; newest first. */
export const mergeTotals = (stored: readonly DayTotal[], fresh: ReadonlyMap<string, DayTotal | null>, limit: number) => {
  const byDate = new Map(stored.map((t) => [t.date, t] as const));
  for (const [date, total] of fresh) {
    if (total) byDate.set(date, total);
    else byDate.delete(date);
  }
  return [...byDate.values()].sort((a, b) => (a.date < b.date ? 1 : -1)).slice(0, limit);
};
