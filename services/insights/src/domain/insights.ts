import type { Insights, Profile, Targets, TrendNow } from "@fit/contracts";
import { addDays, localDay } from "./calendar.ts";
import { EXPENDITURE_WINDOW_DAYS, estimateExpenditure, type Profile as EstimateProfile } from "./expenditure.ts";
import { suggestTargets } from "./targets.ts";
import { goalDate, trendSeries, weeklyRate } from "./trend.ts";

/** Days of trend and food the answer shows (the chart); the estimate itself reads EXPENDITURE_WINDOW_DAYS. */
const CHART_DAYS = 90;
/** From this day on the read model is read: the estimate's window and the chart's, whichever is longer. */
export const firstDayRead = (asOf: string) => addDays(asOf, -Math.max(EXPENDITURE_WINDOW_DAYS, CHART_DAYS));

/** Today in the profile's time zone: the day a request without a date is about. */
export const todayIn = (timeZone: string, now = Date.now()) => localDay(now, timeZone);

/** The profile as the estimates take it: unknown fields left out, so they fall back to their stand-ins. */
const estimateProfile = (profile: Profile): EstimateProfile => ({
  ...(profile.heightCm === null ? {} : { heightCm: profile.heightCm }),
  ...(profile.birthYear === null ? {} : { birthYear: profile.birthYear }),
  ...(profile.sex === null ? {} : { sex: profile.sex }),
  ...(profile.activityLevel === null ? {} : { activityLevel: profile.activityLevel }),
});

const kg2 = (kg: number) => Math.round(kg * 100) / 100;

export interface InsightsInput {
  asOf: string;
  profile: Profile;
  /**
   * Each local day's mean weight in the profile's zone, oldest first, from the day before firstDayRead(asOf) on
   * (later days are left out here): the read model's day rows (docs/decisions/0087-insights-weight-days.md).
   */
  days: { date: string; kg: number }[];
  intake: { date: string; kcal: number; counted: boolean }[];
  targets: Targets | null;
}

/** The trend from the days up to `asOf`, its last point and its weekly rate. */
const trendTo = ({ asOf, days }: Pick<InsightsInput, "asOf" | "days">) => {
  const means = days.filter((day) => day.date <= asOf);
  const trend = trendSeries(means);
  return { means, trend, latest: trend.at(-1) ?? null, rate: weeklyRate(trend, asOf) };
};

/** The dashboard's part: the same trend weight and rate as `insightsOf`, without the estimate. */
export const trendNowOf = (input: Pick<InsightsInput, "asOf" | "days">): TrendNow => {
  const { latest, rate } = trendTo(input);
  return { trendKg: latest && kg2(latest.trendKg), weeklyRateKg: rate && kg2(rate.kgPerWeek) };
};

/** Everything `GET /api/insights` answers, as of the day `asOf`, from the read model's rows. */
export const insightsOf = ({ asOf, profile, days: weightDays, intake, targets }: InsightsInput): Insights => {
  const { means, trend, latest, rate } = trendTo({ asOf, days: weightDays });
  const chartFrom = addDays(asOf, -(CHART_DAYS - 1));
  const days = intake.filter((day) => day.date >= chartFrom && day.date <= asOf);
  const person = estimateProfile(profile);
  const expenditure = estimateExpenditure({ trend, intake: intake.filter((day) => day.date <= asOf), profile: person, latestKg: means.at(-1)?.kg ?? null, asOf });
  const goalKg = targets?.goalWeightKg ?? null;
  const targetDate = targets?.targetDate == null ? null : localDay(targets.targetDate, profile.timeZone);
  return {
    date: asOf,
    trend: trend.filter((point) => point.date >= chartFrom).map((point) => ({ date: point.date, kg: point.kg === null ? null : kg2(point.kg), trendKg: kg2(point.trendKg) })),
    trendKg: latest && kg2(latest.trendKg),
    weeklyRateKg: rate && kg2(rate.kgPerWeek),
    rateWindowDays: rate?.windowDays ?? null,
    goal: goalKg === null ? null : {
      goalWeightKg: goalKg,
      targetDate,
      goalDate: latest && rate ? goalDate(latest.trendKg, rate.kgPerWeek, goalKg, asOf) : null,
    },
    expenditure,
    suggestedTargets: goalKg === null || expenditure === null || latest === null
      ? null
      : suggestTargets({ expenditure, trendKg: latest.trendKg, goalKg, targetDate, asOf, profile: person }),
    days: days.map(({ date, kcal, counted }) => ({ date, kcal: Math.round(kcal), counted })),
  };
};
