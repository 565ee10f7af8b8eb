// A daily calorie and protein target that reaches the goal weight by the target date, within guard rails
// (docs/decisions/0068).
import { addDays, dayNumber } from "./calendar.ts";
import { KCAL_PER_KG, type Expenditure, type Profile } from "./expenditure.ts";
import { AT_GOAL_KG } from "./trend.ts";

export interface SuggestedTargets { dailyKcal: number; dailyProteinG: number; weeklyRateKg: number; reachable: boolean; reason: string | null }

/** Least daily intake suggested, by sex (the usual clinical floors; without a sex, the higher one). */
const MIN_DAILY_KCAL = { female: 1200, male: 1500, unknown: 1500 } as const;
/** Fastest suggested loss and gain per week, as a share of body weight. */
const MAX_WEEKLY_LOSS_SHARE = 0.01;
const MAX_WEEKLY_GAIN_SHARE = 0.005;
/** Pace suggested when there is no target date: half the fastest. */
const UNDATED_SHARE_OF_MAX = 0.5;
/** Protein per kg of reference weight a day: where muscle retention and gain plateau (Morton et al. 2018, 1.6 g/kg). */
const PROTEIN_G_PER_KG = 1.6;
/** Protein is per kg of the weight at this BMI when heavier: fat mass needs no protein. */
const PROTEIN_REFERENCE_BMI = 25;

const round10 = (kcal: number) => Math.round(kcal / 10) * 10;
const kg1 = (kg: number) => (Math.round(kg * 10) / 10).toFixed(1);

/**
 * The intake (kcal/day) and weekly rate (kg/week, negative when losing) that reach `goalKg` from `trendKg` by
 * `targetDate`, or at half the fastest safe pace without one. When that needs a faster rate than
 * MAX_WEEKLY_LOSS_SHARE/GAIN_SHARE of body weight or less food than MIN_DAILY_KCAL, the target is held at the
 * limit and `reason` says why in plain words, with the date the limit reaches the goal.
 */
export function suggestTargets(input: { expenditure: Expenditure; trendKg: number; goalKg: number; targetDate: string | null; asOf: string; profile: Profile }): SuggestedTargets {
  const { expenditure, trendKg, goalKg, targetDate, asOf, profile } = input;
  const proteinG = dailyProteinG(trendKg, profile);
  const distance = goalKg - trendKg;
  const hold = (reason: string | null) => ({ dailyKcal: round10(expenditure.kcal), dailyProteinG: proteinG, weeklyRateKg: 0, reachable: reason === null, reason });
  // At the goal by the goal date's own measure, the target is to hold the weight.
  if (Math.abs(distance) <= AT_GOAL_KG) return hold(null);

  const losing = distance < 0;
  const maxRate = trendKg * (losing ? MAX_WEEKLY_LOSS_SHARE : MAX_WEEKLY_GAIN_SHARE);
  const daysLeft = targetDate === null ? null : dayNumber(targetDate) - dayNumber(asOf);
  if (daysLeft !== null && daysLeft <= 0) return hold(`The target date ${targetDate} has passed; set a new one.`);

  const wanted = daysLeft === null ? Math.sign(distance) * maxRate * UNDATED_SHARE_OF_MAX : (distance / daysLeft) * 7;
  const floor = MIN_DAILY_KCAL[profile.sex ?? "unknown"];
  const kcalFor = (rate: number) => expenditure.kcal + (rate / 7) * KCAL_PER_KG;
  const direction = losing ? "losing" : "gaining";

  let rate = wanted;
  const reasons: string[] = [];
  if (Math.abs(rate) > maxRate) {
    rate = Math.sign(distance) * maxRate;
    reasons.push(
      `Reaching ${kg1(goalKg)} kg by ${targetDate} needs ${direction} ${kg1(Math.abs(wanted))} kg a week, more than ` +
        `${(losing ? MAX_WEEKLY_LOSS_SHARE : MAX_WEEKLY_GAIN_SHARE) * 100} % of body weight (${kg1(maxRate)} kg) a week.`,
    );
  }
  // A gain's intake is above expenditure, so the floor binds only a loss.
  if (losing && kcalFor(rate) < floor) {
    rate = ((floor - expenditure.kcal) / KCAL_PER_KG) * 7;
    reasons.push(`It would mean eating ${round10(kcalFor(wanted))} kcal a day, below the minimum of ${floor} kcal.`);
    if (rate >= 0) {
      return {
        dailyKcal: floor, dailyProteinG: proteinG, weeklyRateKg: 0, reachable: false,
        reason: `${reasons.join(" ")} At ${floor} kcal a day you would not lose weight: your expenditure is about ${round10(expenditure.kcal)} kcal.`,
      };
    }
  }
  if (reasons.length > 0) {
    const reached = addDays(asOf, Math.ceil((distance / rate) * 7));
    reasons.push(`At ${kg1(Math.abs(rate))} kg a week it is reached about ${reached}.`);
  }
  return {
    dailyKcal: round10(kcalFor(rate)), dailyProteinG: proteinG, weeklyRateKg: Math.round(rate * 100) / 100,
    reachable: reasons.length === 0, reason: reasons.length === 0 ? null : reasons.join(" "),
  };
}

/** PROTEIN_G_PER_KG of the body weight, or of the weight at BMI 25 for a heavier person of known height; 5 g steps. */
export function dailyProteinG(kg: number, profile: Profile): number {
  const referenceKg = profile.heightCm === undefined ? kg : Math.min(kg, PROTEIN_REFERENCE_BMI * (profile.heightCm / 100) ** 2);
  return Math.round((referenceKg * PROTEIN_G_PER_KG) / 5) * 5;
}
