import { foodTable } from "./food-table.ts";
import type { Grounding } from "./grounding.ts";
import { tenth } from "./numbers.ts";

export interface FoodFacts {
  kcal: number;
  proteinG: number;
}

type Verdict = "good" | "fits" | "tight" | "poor" | "no_target";

export interface Judgement {
  verdict: Verdict;
  remainingKcal: number | null;
  remainingProteinG: number | null;
  betterOption: { name: string; portion: string; kcal: number; proteinG: number } | null;
}

/** Protein per 100 kcal above which a food counts as protein-dense. */
const DENSE_PROTEIN = 8;

/** A portion from the table that fits what is left and carries the most protein per kcal; the same every time. */
const betterOption = (budgetKcal: number, than: FoodFacts): Judgement["betterOption"] => {
  const options = foodTable
    .map((entry) => ({
      name: entry.name,
      portion: `${entry.portion.grams} g (${entry.portion.label})`,
      kcal: Math.round((entry.kcalPer100g * entry.portion.grams) / 100),
      proteinG: Math.round(entry.proteinPer100g * entry.portion.grams) / 100,
      id: entry.id,
    }))
    .filter((o) => o.kcal > 0 && o.kcal <= Math.max(budgetKcal, 0) && o.kcal < than.kcal)
    .sort((a, b) => b.proteinG / b.kcal - a.proteinG / a.kcal || a.id.localeCompare(b.id));
  const best = options[0];
  return best ? { name: best.name, portion: best.portion, kcal: best.kcal, proteinG: tenth(best.proteinG) } : null;
};

/**
 * How a food fits the day: `poor` when it does not fit what is left of the kcal target, `tight` when it takes
 * most of it, `good` when it fits easily and is protein-dense, else `fits`. A better option is offered for the
 * poor and tight ones.
 */
export const judgeFood = (food: FoodFacts, grounding: Pick<Grounding, "targets" | "intake">): Judgement => {
  const target = grounding.targets?.dailyKcalTarget ?? null;
  const logged = grounding.intake?.kcal ?? 0;
  const remainingKcal = target === null ? null : Math.round(target - logged);
  const proteinTarget = grounding.targets?.proteinTargetG ?? null;
  const remainingProteinG = proteinTarget === null ? null : tenth(proteinTarget - (grounding.intake?.proteinG ?? 0));
  if (remainingKcal === null) return { verdict: "no_target", remainingKcal, remainingProteinG, betterOption: null };
  const dense = food.kcal > 0 && (food.proteinG * 100) / food.kcal >= DENSE_PROTEIN;
  const verdict: Verdict =
    food.kcal > remainingKcal ? "poor" : food.kcal > 0.6 * remainingKcal ? "tight" : dense ? "good" : "fits";
  const budget = verdict === "poor" ? Math.min(remainingKcal, 400) : Math.min(food.kcal, remainingKcal);
  return { verdict, remainingKcal, remainingProteinG, betterOption: verdict === "poor" || verdict === "tight" ? betterOption(budget, food) : null };
};
