import type { FoodEstimate } from "@fit/contracts";
import type { Grounding } from "./grounding.ts";
import { tenth } from "./numbers.ts";

export interface FoodFacts {
  kcal: number;
  proteinG: number;
}

type Verdict = "good" | "fits" | "tight" | "just_over" | "poor" | "no_target";

export interface Judgement {
  verdict: Verdict;
  remainingKcal: number | null;
  remainingProteinG: number | null;
  betterOption: { name: string; portion: string; kcal: number; proteinG: number } | null;
}

/** Protein per 100 kcal above which a food counts as protein-dense. */
const DENSE_PROTEIN = 8;

/**
 * The foods a better option is chosen among, in words the estimator reads like any meal: a short list because a
 * suggestion should be a plain, everyday portion, not whichever of the database's 7 800 foods has the most
 * protein per kcal (egg white powder). Their numbers come from the food database, as every estimate's do.
 */
export const betterOptionFoods = "a cup of greek yogurt, 2 eggs, 100 g chicken breast, 100 g tuna, an apple, a banana, a carrot, a cup of broccoli";

export type Option = Pick<FoodEstimate, "name" | "kcal" | "proteinG"> & { portion: string };

/** The better options as the verdict offers them, from their estimates. */
export const optionsFrom = (estimates: readonly FoodEstimate[]): Option[] =>
  estimates.map((e) => ({ name: e.name, portion: `${e.grams} g (${e.quantity} ${e.unit})`, kcal: e.kcal, proteinG: e.proteinG }));

/** The option that fits what is left and carries the most protein per kcal; the same every time. */
const betterOption = (budgetKcal: number, than: FoodFacts, options: readonly Option[]): Judgement["betterOption"] => {
  const best = options
    .filter((o) => o.kcal > 0 && o.kcal <= Math.max(budgetKcal, 0) && o.kcal < than.kcal)
    .sort((a, b) => b.proteinG / b.kcal - a.proteinG / a.kcal || a.name.localeCompare(b.name))[0];
  return best ? { name: best.name, portion: best.portion, kcal: best.kcal, proteinG: tenth(best.proteinG) } : null;
};

/**
 * How a food fits the day, in the bands of the day's adherence (on target from 90 % to 110 % of it): `poor` when
 * the day would end above 110 %, `just_over` when above the target but within 110 %, `tight` when it takes most of
 * what is left, `good` when it fits easily and is protein-dense, else `fits`. A better option, one of `options`, is
 * offered for all but the last two.
 */
export const judgeFood = (food: FoodFacts, grounding: Pick<Grounding, "targets" | "intake">, options: readonly Option[]): Judgement => {
  const target = grounding.targets?.dailyKcalTarget ?? null;
  const logged = grounding.intake?.kcal ?? 0;
  const proteinTarget = grounding.targets?.proteinTargetG ?? null;
  const remainingProteinG = proteinTarget === null ? null : tenth(proteinTarget - (grounding.intake?.proteinG ?? 0));
  if (target === null) return { verdict: "no_target", remainingKcal: null, remainingProteinG, betterOption: null };
  const remainingKcal = Math.round(target - logged);
  const dense = food.kcal > 0 && (food.proteinG * 100) / food.kcal >= DENSE_PROTEIN;
  // Whole-number ratios, as the daily total's adherence compares them.
  const dayEnd = logged + food.kcal;
  const verdict: Verdict =
    dayEnd * 100 > target * 110 ? "poor"
    : dayEnd > target ? "just_over"
    : food.kcal > 0.6 * remainingKcal ? "tight"
    : dense ? "good" : "fits";
  const budget = verdict === "poor" ? Math.min(remainingKcal, 400) : Math.min(food.kcal, remainingKcal);
  const offer = verdict === "poor" || verdict === "just_over" || verdict === "tight";
  return { verdict, remainingKcal, remainingProteinG, betterOption: offer ? betterOption(budget, food, options) : null };
};
