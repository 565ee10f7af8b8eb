import { z } from "zod";
import { defineEndpoint } from "./bus.ts";
import { accountId, CalendarDate } from "./common.ts";

/** Whether the runtime knows the IANA zone; aliases it accepts (`UTC`, `Europe/Kiev`) are zones too. */
export const isTimeZone = (value: string): boolean => {
  try {
    new Intl.DateTimeFormat("en", { timeZone: value });
    return true;
  } catch {
    return false;
  }
};

export const Units = z
  .enum(["metric", "imperial", "imperial_stones"], { error: "units must be one of metric, imperial, imperial_stones" })
  .meta({
    id: "Units",
    description:
      "How clients show and accept numbers; the API itself is always kg and cm. `metric`: kg and cm. `imperial`: " +
      "body weight in lb, lengths in in. `imperial_stones`: body weight in st and lb, lengths in in.",
  });
export type Units = z.infer<typeof Units>;

export const ActivityLevel = z
  .enum(["sedentary", "light", "moderate", "active", "very_active"], {
    error: "activityLevel must be one of sedentary, light, moderate, active, very_active",
  })
  .meta({ description: "Daily activity outside logged workouts; starts the expenditure estimate before there is data." });

export const Sex = z
  .enum(["female", "male"], { error: "sex must be one of female, male" })
  .meta({ description: "Only for the starting expenditure estimate (Mifflin–St Jeor); optional." });

export const FirstDayOfWeek = z
  .enum(["monday", "sunday", "saturday"], { error: "firstDayOfWeek must be one of monday, sunday, saturday" });

const TimeZone = z
  .string({ error: "timeZone must be an IANA time zone name" })
  .max(64, { error: "timeZone must be an IANA time zone name such as Europe/Berlin" })
  .refine(isTimeZone, { error: "timeZone must be an IANA time zone name such as Europe/Berlin" })
  .meta({ description: "IANA time zone (`Europe/Berlin`); \"today\" of the insights and the coach when a client sends no date." });

const HEIGHT = "heightCm must be between 50 and 272 cm";
const HeightCm = z.number({ error: "heightCm must be a number of centimetres" }).min(50, { error: HEIGHT }).max(272, { error: HEIGHT });
const BIRTH_YEAR = "birthYear must be a year between 1900 and 2020";
const BirthYear = z
  .number({ error: "birthYear must be a year" })
  .int({ error: BIRTH_YEAR })
  .min(1900, { error: BIRTH_YEAR })
  .max(2020, { error: BIRTH_YEAR });

/** What a profile holds before the person sets anything. */
export const defaultProfile = {
  heightCm: null,
  birthYear: null,
  sex: null,
  activityLevel: null,
  units: "metric",
  timeZone: "UTC",
  firstDayOfWeek: "monday",
} as const;

export const ProfileInput = z
  .object({
    heightCm: HeightCm.nullable().optional(),
    birthYear: BirthYear.nullable().optional(),
    sex: Sex.nullable().optional(),
    activityLevel: ActivityLevel.nullable().optional(),
    units: Units.optional(),
    timeZone: TimeZone.optional(),
    firstDayOfWeek: FirstDayOfWeek.optional(),
  })
  .meta({
    id: "ProfileInput",
    description:
      "Replaces the caller's profile. An omitted field takes its default: null, `metric` units, `UTC`, `monday`.",
  });

export const Profile = z
  .object({
    heightCm: z.number().nullable(),
    birthYear: z.number().int().nullable(),
    sex: Sex.nullable(),
    activityLevel: ActivityLevel.nullable(),
    units: Units,
    timeZone: z.string(),
    firstDayOfWeek: FirstDayOfWeek,
  })
  .meta({ id: "Profile", description: "The person behind the account; the defaults until they set it." });
export type Profile = z.infer<typeof Profile>;

export const InsightsQuery = z.object({
  date: CalendarDate.optional().meta({ description: "The day the insights are computed as of; default today in the profile's time zone." }),
});

export const Expenditure = z
  .object({
    kcal: z.number().meta({ description: "Estimated daily energy expenditure." }),
    low: z.number().meta({ description: "Lower end of the 90 % range." }),
    high: z.number().meta({ description: "Upper end of the 90 % range." }),
    confidence: z.enum(["formula", "low", "medium", "high"]).meta({ description: "`formula`: from the profile alone, too few counted days yet." }),
    daysCounted: z.number().int().meta({ description: "Counted food days the estimate rests on." }),
    method: z.string(),
  })
  .meta({ id: "Expenditure" });

export const SuggestedTargets = z
  .object({
    dailyKcal: z.number(),
    dailyProteinG: z.number(),
    weeklyRateKg: z.number().meta({ description: "The rate these targets aim at; negative when losing." }),
    reachable: z.boolean().meta({ description: "false: the goal is not reachable safely by the target date; `reason` says why." }),
    reason: z.string().nullable(),
  })
  .meta({ id: "SuggestedTargets" });

export const Insights = z
  .object({
    date: CalendarDate.meta({ description: "The day computed as of (the profile's local day)." }),
    trend: z
      .array(z.object({ date: CalendarDate, kg: z.number().nullable(), trendKg: z.number() }))
      .meta({ description: "The 90 days up to `date` that have a trend, oldest first: `kg` the day's mean reading (null on a day without one), `trendKg` the trend weight." }),
    trendKg: z.number().nullable(),
    weeklyRateKg: z.number().nullable().meta({ description: "kg per week from the trend's slope over `rateWindowDays`; negative when losing; null under a week of trend." }),
    rateWindowDays: z.number().int().nullable(),
    goal: z
      .object({
        goalWeightKg: z.number(),
        targetDate: CalendarDate.nullable(),
        goalDate: CalendarDate.nullable().meta({ description: "When the trend reaches the goal at the weekly rate; null when moving away or not moving." }),
      })
      .nullable()
      .meta({ description: "Null without a goal weight (PUT /api/targets)." }),
    expenditure: Expenditure.nullable().meta({ description: "Null without any weigh-in." }),
    suggestedTargets: SuggestedTargets.nullable().meta({ description: "Null without a goal weight or an expenditure; POST /api/insights/adopt-targets makes them the targets." }),
    days: z
      .array(z.object({ date: CalendarDate, kcal: z.number(), counted: z.boolean() }))
      .meta({ description: "Food days with items or a mark in the 90 days up to `date`; `counted` as `PUT /api/nutrition/days/{date}` marks it (by default: has items). A day without items is unknown, never zero, unless marked complete." }),
  })
  .meta({ id: "Insights" });
export type Insights = z.infer<typeof Insights>;

/** The trend weight and weekly rate as of a day: what the dashboard adds to its `weight`. */
export const TrendNow = z.object({
  trendKg: z.number().nullable().meta({ description: "The trend weight on the day (insights); null without a weigh-in, or when insights did not answer in time." }),
  weeklyRateKg: z.number().nullable().meta({ description: "kg per week from the trend's slope; negative when losing; null under a week of trend, or when insights did not answer in time." }),
});
export type TrendNow = z.infer<typeof TrendNow>;

/**
 * The questions insights answers from its read model
 * (docs/decisions/0075-counted-days-and-insights-in-the-dashboard.md).
 */
export const insightsBus = {
  /** The dashboard's: trend and rate alone, from the weigh-ins, without the estimate or the goal. */
  trend: defineEndpoint({
    subject: "insights.trend.get",
    service: "insights",
    request: z.object({ accountId, date: CalendarDate }),
    reply: TrendNow,
  }),
  /** The coach's: all of `GET /api/insights` as of a day (default the profile's today). */
  insights: defineEndpoint({
    subject: "insights.insights.get",
    service: "insights",
    request: z.object({ accountId, date: CalendarDate.optional() }),
    reply: Insights,
  }),
};
