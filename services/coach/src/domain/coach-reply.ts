import type { FoodEstimate } from "@fit/contracts";
import type { Grounding } from "./grounding.ts";
import { sum, tenth } from "./numbers.ts";
import type { Judgement } from "./verdict.ts";

const verdictText: Record<Judgement["verdict"], string> = {
  good: "Good choice: it fits easily and is rich in protein.",
  fits: "It fits your budget.",
  tight: "It fits, but takes most of what is left for today.",
  just_over: "It takes you just past today's target, still within 10 % of it: fine now and then, not every day.",
  poor: "Poor fit: it takes you more than 10 % past today's target.",
  no_target: "No daily kcal target is set, so I cannot judge the fit; set one under your goals.",
};

const estimateLine = (items: readonly FoodEstimate[]): string => {
  // A portion named like the food ("1 banana") is not said twice.
  const parts = items.map((i) => `${i.quantity ?? ""}${i.unit && i.unit !== i.name ? ` ${i.unit}` : ""} ${i.name}`.trim());
  const kcal = Math.round(sum(items, (i) => i.kcal));
  const low = Math.round(sum(items, (i) => i.kcalRange.low));
  const high = Math.round(sum(items, (i) => i.kcalRange.high));
  const protein = tenth(sum(items, (i) => i.proteinG));
  return `${parts.join(" + ")}: about ${kcal} kcal (likely ${low}–${high}) and ${protein} g protein.`;
};

const budgetLine = ({ date, intake, targets }: Pick<Grounding, "date" | "intake" | "targets">): string => {
  const logged = intake ? `${Math.round(intake.kcal)} kcal and ${Math.round(intake.proteinG)} g protein logged` : "intake unknown";
  const target = targets?.dailyKcalTarget;
  const rest = target != null && intake ? Math.round(target - intake.kcal) : null;
  const left = rest === null ? "" : rest >= 0 ? `, ${rest} kcal left of ${target}` : `, ${-rest} kcal over the target of ${target}`;
  const protein = targets?.proteinTargetG != null && intake ? `, ${Math.max(0, Math.round(targets.proteinTargetG - intake.proteinG))} g protein to go` : "";
  return `On ${date}: ${logged}${left}${protein}.`;
};

const signed = (kg: number) => `${kg > 0 ? "+" : ""}${kg}`;

/** The trend and its rate rather than raw readings, which swing with water; the latest reading alone without insights. */
const weightLine = ({ weight, progress }: Pick<Grounding, "weight" | "progress">): string | null => {
  if (!weight && progress?.trendKg == null) return null;
  const parts = [
    ...(progress?.trendKg == null ? [] : [`trend ${progress.trendKg} kg`]),
    ...(progress?.weeklyRateKg == null ? [] : [`${signed(progress.weeklyRateKg)} kg a week`]),
    ...(weight ? [`${weight.latestKg} kg latest`] : []),
  ];
  const goal = progress?.goal;
  const target = goal?.targetDate ? ` (target ${goal.targetDate})` : "";
  // Without a rate yet there is no saying whether the goal is in reach; "Not yet" says why.
  const reach = !goal || progress?.weeklyRateKg == null ? ""
    : goal.goalDate ? `; ${goal.goalWeightKg} kg around ${goal.goalDate}${target}` : `; ${goal.goalWeightKg} kg not in reach at this rate`;
  return `Weight: ${parts.join(", ")}${reach}.`;
};

const expenditureLine = ({ progress }: Pick<Grounding, "progress">): string | null => {
  const expenditure = progress?.expenditure;
  if (!expenditure || expenditure.confidence === "formula") return null;
  return `Expenditure: about ${expenditure.kcal} kcal a day (${expenditure.low}–${expenditure.high}, ${expenditure.confidence} confidence, ${expenditure.daysCounted} counted days).`;
};

const thinLine = ({ progress }: Pick<Grounding, "progress">): string | null =>
  progress && progress.tooThin.length > 0 ? `Not yet: ${progress.tooThin.join("; ")}.` : null;

const missingLine = ({ missing }: Pick<Grounding, "missing">): string | null =>
  missing.length > 0 ? `I could not read your ${missing.join(", ")} just now, so this leaves ${missing.length === 1 ? "it" : "them"} out.` : null;

/**
 * The built-in coach's answer: the estimate with its range, the budget fit, a blunt verdict and a better option.
 * It says plainly that it is an estimate from the food database, not a language model.
 */
export const estimatorReply = (estimate: readonly FoodEstimate[], judgement: Judgement | null, grounding: Grounding): string => {
  const lines = [
    estimate.length > 0
      ? `Estimate (${estimate.every((i) => i.source.startsWith("usda:")) ? "built-in estimator on the USDA food database, not a language model" : "the model's, as logged"}): ${estimateLine(estimate)}`
      : "I read no food in your message, so here is your day so far (to have a food judged, name it with an amount, e.g. \"two slices of pizza\").",
    budgetLine(grounding),
  ];
  if (judgement) {
    lines.push(`Verdict: ${verdictText[judgement.verdict]}`);
    if (judgement.betterOption) {
      const o = judgement.betterOption;
      lines.push(`Better option: ${o.name}, ${o.portion}: about ${o.kcal} kcal and ${o.proteinG} g protein.`);
    }
  }
  for (const line of [weightLine(grounding), expenditureLine(grounding), thinLine(grounding), missingLine(grounding)]) if (line) lines.push(line);
  return lines.join("\n");
};
