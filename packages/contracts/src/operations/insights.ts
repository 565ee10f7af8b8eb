// The HTTP operations of the profile and the insights (insights).
import { Targets } from "../body-metrics.ts";
import { Insights, InsightsQuery, Profile, ProfileInput } from "../insights.ts";
import { define, type Operation } from "./operation.ts";

export const insightsOperations = {
  getProfile: define({
    id: "getProfile", method: "GET", path: "/api/profile", service: "insights", tag: "Profile", scope: "profile:read",
    summary: "Get the profile",
    description: "Height, birth year, sex, activity level, display units, time zone and first day of the week; the defaults " +
      "(metric, UTC, monday, the rest null) until they are set. `units` tells clients how to show and accept numbers: the " +
      "API itself always speaks kilograms and centimetres.",
    response: Profile, errors: [],
  }),
  putProfile: define({
    id: "putProfile", method: "PUT", path: "/api/profile", service: "insights", tag: "Profile", scope: "profile:write",
    summary: "Set the profile", description: "Replaces the caller's profile; omitted fields take their defaults. Returns it.",
    body: ProfileInput, response: Profile, errors: [400, 413, 415],
  }),
  getInsights: define({
    id: "getInsights", method: "GET", path: "/api/insights", service: "insights", tag: "Insights", scope: "dashboard:read",
    summary: "Trend weight, weekly rate, goal date, expenditure and suggested targets",
    description: "Computed from the caller's weigh-ins and food days as of `date` (default: today in the profile's time zone; " +
      "readings are grouped by local day). The trend is a smoothed weight that sees through day-to-day water swings; the " +
      "weekly rate is its slope; the goal date is when the trend reaches the goal weight at that rate. Expenditure starts " +
      "from a formula on the profile and moves to what logged intake and the trend's change say (~7 700 kcal per kg) as " +
      "counted days accumulate, with a 90 % range. A day without food logged is unknown, never zero. Suggested targets " +
      "reach the goal by the target date within safe limits, or say why they cannot. A change reaches the insights within " +
      "moments (events).",
    query: InsightsQuery, response: Insights, errors: [400, 503, 504],
  }),
  adoptSuggestedTargets: define({
    id: "adoptSuggestedTargets", method: "POST", path: "/api/insights/adopt-targets", service: "insights", tag: "Insights",
    scope: "targets:write", summary: "Make the suggested daily kcal and protein the targets",
    description: "Computes the suggestion for today (as GET /api/insights does) and sets it as `dailyKcalTarget` and " +
      "`proteinTargetG`, keeping the goal weight and dates. 422 when there is no suggestion (no goal weight or no weigh-in).",
    response: Targets, errors: [422, 503, 504],
  }),
} satisfies Record<string, Operation>;
